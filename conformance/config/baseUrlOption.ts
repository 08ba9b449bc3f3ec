import { InvalidArgumentError } from 'commander';

/** A commander argument parser for a deployment's base URL: absolute, http or https, kept without its trailing slashes. */
export function baseUrlOption(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('Give an absolute http or https URL, such as https://api.example.com/v1.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('Give an http or https URL.');
  return value.replace(/\/+$/, '');
}
