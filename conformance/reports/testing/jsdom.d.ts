// The little of jsdom the report tests use (the project has no @types/jsdom).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { contentType?: string });
    readonly window: { document: Document };
  }
}
