import type { ErrorObject } from 'ajv';

const typeWords: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a JSON array',
  null: 'null',
};

/**
 * `/3/name` under root `pets` reads `pets[3].name`, `/categoryId` reads `categoryId`,
 * and an empty path is the root itself.
 */
function fieldName(instancePath: string, root: string): string {
  let name = '';
  for (const part of instancePath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    name = /^\d+$/.test(key) ? `${name || root}[${key}]` : name ? `${name}.${key}` : key;
  }
  return name || root || 'the value';
}

/**
 * One sentence that says what is wrong and what to send instead, for the first Ajv error.
 * `root` names the whole value (empty for a body whose fields are named on their own).
 */
export function describeAjvErrors(errors: readonly ErrorObject[] | null | undefined, root = ''): string {
  const error = errors?.[0];
  if (!error) return `${root || 'the value'} is invalid`;
  const field = fieldName(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      return `${error.instancePath === '' ? missing : `${field}.${missing}`} is required`;
    }
    case 'type': {
      const types = String(params.type).split(',');
      return `${field} must be ${types.map((t) => typeWords[t] ?? t).join(' or ')}`;
    }
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field} must be ${params.comparison} ${params.limit}`;
    case 'format':
      if (params.format === 'int64-range') return `${field} must be a whole number from -9223372036854775808 to 9223372036854775807 (int64)`;
      if (params.format === 'int64') {
        return `${field} must be a whole number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`;
      }
      return `${field} must be a valid ${params.format}`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}
