// What a served read may reach, judged on DuckDB's own parse of the statement (json_serialize_sql's tree): the
// warehouse's tables and views, CTEs, a few table functions that only make rows (range, unnest), and functions
// and types the writer's DuckDB has loaded, minus those that read settings, the environment or the log. So a
// file (read_text, FROM '/etc/passwd'), a URL, another database or an extension to load is out of reach.
// Invariant: anything the walk does not know in a FROM clause is refused, not passed.

/** What the writer's DuckDB knows (lower case): its main schema's tables and views, loaded functions and types. */
export interface ServedCatalog {
  database: string;
  relations: ReadonlySet<string>;
  functions: ReadonlySet<string>;
  types: ReadonlySet<string>;
}

/** Table functions that only make rows from their arguments: the ones the readers' SQL uses. */
const TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest']);
/** Functions the parser knows that DuckDB's function list does not (unnest in a select list). */
const PARSER_FUNCTIONS = new Set(['unnest', 'unlist']);
/** Loaded functions that reach settings, variables, the environment, sequences, the log or parse more SQL. */
const REFUSED_FUNCTIONS = new Set([
  'current_setting',
  'getvariable',
  'getenv',
  'nextval',
  'currval',
  'setseed',
  'sleep_ms',
  'pg_sleep',
  'write_log',
  'json_serialize_plan',
  'json_serialize_sql',
  'json_deserialize_sql',
]);
/** The catalog's own views some readers use (export: which tables and columns there are). */
const SYSTEM_RELATIONS = new Set(['information_schema.tables', 'information_schema.columns']);
/** Kinds of FROM items that name nothing by themselves (their parts are walked). */
const PLAIN_TABLE_REFS = new Set(['SUBQUERY', 'JOIN', 'EXPRESSION_LIST', 'EMPTY', 'PIVOT']);
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** Why the serialized statement reaches beyond the warehouse's data, or undefined when it does not. */
export function findOutOfReach(statement: unknown, catalog: ServedCatalog): string | undefined {
  const ctes = new Set<string>();
  collectCteNames(statement, ctes);
  return visit(statement, { catalog, ctes });
}

interface WalkContext {
  catalog: ServedCatalog;
  ctes: ReadonlySet<string>;
}

function visit(value: unknown, context: WalkContext): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const reason = visit(item, context);
      if (reason) return reason;
    }
    return undefined;
  }
  if (!isNode(value)) return undefined;
  const own = judgeNode(value, context);
  if (own) return own;
  for (const [key, child] of Object.entries(value)) {
    // a table function's own name was judged; its arguments are walked as expressions
    const walked =
      key === 'function' && value['type'] === 'TABLE_FUNCTION' ? (child as Node)['children'] : child;
    const reason = visit(walked, context);
    if (reason) return reason;
  }
  return undefined;
}

/** The node itself: a function call, a FROM item or a type by name. */
function judgeNode(node: Node, context: WalkContext): string | undefined {
  if ('class' in node)
    return typeof node['function_name'] === 'string' ? judgeFunction(node, context) : undefined;
  const typeInfo = node['type_info'];
  if (isNode(typeInfo) && typeof typeInfo['name'] === 'string' && typeInfo['type'] === 'UNBOUND_TYPE_INFO')
    return context.catalog.types.has(typeInfo['name'].toLowerCase())
      ? undefined
      : `the type ${typeInfo['name']} is not one the writer has loaded`;
  if (isTableRef(node)) return judgeTableRef(node, context);
  return undefined;
}

/** A FROM item: it has an alias and a sample, and is not a query node (SELECT_NODE, ...). */
function isTableRef(node: Node): boolean {
  const type = node['type'];
  return typeof type === 'string' && !type.endsWith('_NODE') && 'alias' in node && 'sample' in node;
}

function judgeFunction(node: Node, context: WalkContext): string | undefined {
  const name = String(node['function_name']).toLowerCase();
  if (REFUSED_FUNCTIONS.has(name)) return `the function ${name} reads settings, the environment or the log`;
  if (!context.catalog.functions.has(name) && !PARSER_FUNCTIONS.has(name))
    return `the function ${name} is not one the writer has loaded (it would load an extension, or read files)`;
  return undefined;
}

function judgeTableRef(node: Node, context: WalkContext): string | undefined {
  const type = String(node['type']);
  if (PLAIN_TABLE_REFS.has(type)) return undefined;
  if (type === 'BASE_TABLE') return judgeRelation(node, context);
  if (type === 'SHOW_REF') return node['table_name'] === '' ? undefined : 'DESCRIBE or SUMMARIZE of a name';
  if (type === 'TABLE_FUNCTION') {
    const call = node['function'];
    const name = isNode(call) ? String(call['function_name']).toLowerCase() : '';
    return TABLE_FUNCTIONS.has(name) ? undefined : `the table function ${name} (files, URLs or the catalog)`;
  }
  return `a ${type} in FROM`;
}

function judgeRelation(node: Node, context: WalkContext): string | undefined {
  const name = String(node['table_name']);
  const schema = String(node['schema_name'] ?? '').toLowerCase();
  const catalog = String(node['catalog_name'] ?? '').toLowerCase();
  const lower = name.toLowerCase();
  if (schema === 'information_schema' && (catalog === '' || catalog === 'system'))
    return SYSTEM_RELATIONS.has(`${schema}.${lower}`) ? undefined : `${schema}.${name}`;
  const ours =
    (catalog === '' || catalog === context.catalog.database) && (schema === '' || schema === 'main');
  if (ours && PLAIN_NAME.test(name) && (context.catalog.relations.has(lower) || context.ctes.has(lower)))
    return undefined;
  return `${[catalog, schema, name].filter(Boolean).join('.')} is not a table of the warehouse (a file, a URL or another database)`;
}

/** The names of every CTE in the statement (plain names only: a name that is not one is never a CTE here). */
function collectCteNames(value: unknown, names: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectCteNames(item, names);
    return;
  }
  if (!isNode(value)) return;
  const cteMap = value['cte_map'];
  if (isNode(cteMap) && Array.isArray(cteMap['map']))
    for (const entry of cteMap['map'])
      if (isNode(entry) && typeof entry['key'] === 'string' && PLAIN_NAME.test(entry['key']))
        names.add(entry['key'].toLowerCase());
  for (const child of Object.values(value)) collectCteNames(child, names);
}
