/**
 * What a browser bundler gets for an entry point of the package that runs only in Node (package.json
 * maps it under the `browser` export condition): a module that throws at import with `sentence`,
 * which names what to use instead, rather than one that fails later on a `node:` module a browser
 * does not have. Each such module still exports its entry's names, typed as the entry has them, so
 * that an import of them bundles (a missing name would fail the build with the bundler's message,
 * not this one) and fails only when it runs.
 */
export function nodeOnlyEntry<Entry>(sentence: string): Entry {
  throw new Error(sentence);
}
