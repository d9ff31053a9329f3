/**
 * Every answer the API tests receive, checked against the server's own document (GET /api/openapi.json): the
 * status must be one the operation lists, and a JSON body must be valid against that status's schema (JSON
 * Schema 2020-12, formats included; objects closed: see `closed`). A path the document does not have may only be a 404 (or a 405 / 501 for
 * a method). So an SQL builder that drifts from its zod entity, or a route that answers a status nobody
 * documented, fails the test that met it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

/** What an answer broke, or null when the document allows it. */
export type Breach = string | null;

/** Statuses any path may answer without the document listing them (no route took the request). */
const UNROUTED = new Set([404, 405, 501]);

/** `/api/matches/{id}` → a pattern; literal segments count, so `/users/counts` wins over `/users/{id}`. */
function templateOf(path: string) {
  const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return { path, pattern, parameters: (path.match(/\{/g) ?? []).length };
}

/**
 * The document with every object schema closed (`additionalProperties: false` unless it says otherwise): an
 * answer carries exactly the properties its entity names, so a column an SQL builder adds and no zod entity
 * declares fails as surely as one it drops.
 */
function closed<T>(value: T): T {
  if (Array.isArray(value)) return value.map(closed) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, closed(inner)]));
  if (copy.type === 'object' && copy.properties && !('additionalProperties' in copy)) copy.additionalProperties = false;
  return copy as T;
}

export class Contract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly templates: ReturnType<typeof templateOf>[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Document) {
    addFormats(this.ajv);
    // The whole document under one id, so the answers' `$ref`s to its components resolve.
    this.ajv.addSchema({ ...closed(document), $id: 'openapi.json' });
    this.templates = Object.keys(document.paths)
      .map(templateOf)
      .sort((a, b) => a.parameters - b.parameters);
  }

  /** Checks one answer: `path` with or without its query, `body` parsed JSON (or the text when it is not). */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): Breach {
    const pathname = path.split('?')[0];
    const template = this.templates.find((candidate) => candidate.pattern.test(pathname));
    const what = `${method} ${pathname} → ${status}`;
    if (!template) return UNROUTED.has(status) ? null : `${what}: the document has no path ${pathname}`;
    const operation = this.document.paths[template.path][method.toLowerCase()];
    if (!operation) return UNROUTED.has(status) ? null : `${what}: the document has no ${method} ${template.path}`;
    const answer = operation.responses[String(status)] ?? operation.responses.default;
    if (!answer) {
      const listed = Object.keys(operation.responses).join(', ');
      return `${what}: ${method} ${template.path} does not list ${status} (it lists ${listed})`;
    }
    if (!contentType?.startsWith('application/json')) return null;
    if (!answer.content?.['application/json']) return `${what}: a JSON body where the document has none`;
    const validate = this.validator(template.path, method.toLowerCase(), String(status));
    if (validate(body)) return null;
    const problems = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
    return `${what}: the body does not match the document: ${problems.join('; ')}\n${JSON.stringify(body).slice(0, 2000)}`;
  }

  private validator(path: string, method: string, status: string): ValidateFunction {
    const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi.json#/${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

const contracts = new Map<string, Promise<Contract>>();

/**
 * The contract of the server at `baseUrl` (its document, fetched once per server), or null while the server
 * cannot give it (a test that stops or restarts its server): that answer then goes unchecked, and the
 * document is asked for again with the next one.
 */
export async function contractOf(baseUrl: string): Promise<Contract | null> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = fetch(`${baseUrl}/api/openapi.json`).then(async (response) => {
      if (!response.ok) throw new Error(`GET /api/openapi.json answered ${response.status}`);
      return new Contract((await response.json()) as Document);
    });
    contracts.set(baseUrl, contract);
  }
  try {
    return await contract;
  } catch {
    contracts.delete(baseUrl);
    return null;
  }
}
