// The usage file's JSON Schema, as the suite checks a file by it; usage.schema.json is the same, for editors
// and other tools (usageSchema.test.ts holds them equal). The package ships .js only, hence this module.
export const usageSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Pet Adoption API client usage",
  description: "What each client used of the contract: operations, query parameters and the kinds of their values, request body fields, answer fields read (or given), statuses. Written by the mock (GET /__mock/client-usage) and the validating proxy (GET /__proxy/usage, --usage-out); read by pets-conformance --usage. Names and kinds only: never a key, never a value. See docs/usage.md.",
  type: "object",
  required: [
    "format",
    "clients"
  ],
  additionalProperties: false,
  properties: {
    format: {
      const: "pets-usage/1"
    },
    source: {
      enum: [
        "mock",
        "proxy",
        "hand"
      ],
      description: "Who wrote it. mock and proxy write under reads every field of the answers the client was given; a hand-edited file may narrow it to the fields the client's code reads."
    },
    clients: {
      type: "array",
      items: {
        $ref: "#/definitions/client"
      }
    }
  },
  definitions: {
    client: {
      type: "object",
      required: [
        "client",
        "operations"
      ],
      additionalProperties: false,
      properties: {
        client: {
          type: "string",
          minLength: 1,
          description: "The client's identity: key:<digest of its API key> or its address. Never the key."
        },
        label: {
          type: "string",
          description: "How reports name it: a redacted key label, or the address."
        },
        requests: {
          type: "integer",
          minimum: 0
        },
        operations: {
          type: "array",
          items: {
            $ref: "#/definitions/operation"
          }
        }
      }
    },
    operation: {
      type: "object",
      required: [
        "operationId"
      ],
      additionalProperties: false,
      properties: {
        operationId: {
          enum: [
            "listPets",
            "createPet",
            "getPet",
            "listStoreOrders"
          ]
        },
        method: {
          type: "string"
        },
        path: {
          type: "string",
          description: "The path template relative to the base URL, e.g. /pets/{petId}."
        },
        requests: {
          type: "integer",
          minimum: 0
        },
        query: {
          type: "object",
          description: "Documented query parameters sent, each with the kinds of the values sent: limit: in-range, out-of-range, not-integer; status: available, pending, sold, other; either: empty, repeated.",
          additionalProperties: {
            type: "array",
            items: {
              type: "string"
            },
            uniqueItems: true
          }
        },
        body: {
          type: "array",
          items: {
            type: "string"
          },
          uniqueItems: true,
          description: "Names of the request body's fields sent."
        },
        reads: {
          type: "object",
          description: "By answer status (\"200\"), the names of the answer fields read (of the Pet, each Pet of a list, or the Error).",
          propertyNames: {
            pattern: "^[1-5][0-9][0-9]$"
          },
          additionalProperties: {
            type: "array",
            items: {
              type: "string"
            },
            uniqueItems: true
          }
        },
        statuses: {
          type: "array",
          items: {
            type: "integer",
            minimum: 0,
            maximum: 599
          },
          uniqueItems: true
        }
      }
    }
  }
} as const;
