/**
 * The catalog of a database as text, object by object, so that two databases can be compared and their
 * differences named: every schema, extension, type, table (columns, storage parameters, RLS, grants),
 * constraint, index, sequence, policy, trigger, function (its definition, owner and grants), publication
 * membership and comment outside PostgreSQL's own schemas, plus the reference data the application ships
 * (app.settings, public.teams). Used by tests/db/schema-drift.test.ts.
 */
import type postgres from 'postgres';

/** Object name → its definition, one fact per line. */
export type Catalog = Map<string, string>;

// Every schema but PostgreSQL's own and the Supabase CLI's migration history.
const isOurs = (schema: string) =>
  `${schema} not in ('information_schema', 'supabase_migrations') and ${schema} not like 'pg\\_%'`;
const OURS = isOurs('nspname');

// Objects that belong to an extension (pg_trgm's functions and operators) are the extension's, not ours.
const notInExtension = (catalog: string, oid: string) =>
  `not exists (select 1 from pg_depend d where d.classid = '${catalog}'::regclass and d.objid = ${oid} and d.deptype = 'e')`;

// An ACL as a sorted list, so that the same grants made in another order compare equal.
const acl = (column: string) =>
  `coalesce((select string_agg(a::text, ' ' order by a::text) from unnest(${column}) a), 'default')`;

const QUERIES = [
  `select 'schema ' || nspname, concat_ws(E'\\n', 'owner ' || pg_get_userbyid(nspowner), 'acl ' || ${acl('nspacl')})
    from pg_namespace where ${OURS}`,
  `select 'extension ' || extname, 'schema ' || extnamespace::regnamespace || E'\\nversion ' || extversion
    from pg_extension`,
  `select 'type ' || t.oid::regtype, concat_ws(E'\\n', 'kind ' || t.typtype::text, 'owner ' || pg_get_userbyid(t.typowner),
             'acl ' || ${acl('t.typacl')},
             (select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), E'\\n' order by a.attnum)
              from pg_attribute a where a.attrelid = t.typrelid and a.attnum > 0 and not a.attisdropped),
             (select string_agg(e.enumlabel, ', ' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid))
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
    where ${OURS} and ${notInExtension('pg_type', 't.oid')}
      and (t.typtype in ('e', 'd', 'r', 'm') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c'))`,
  `select case c.relkind when 'r' then 'table ' when 'p' then 'table ' when 'v' then 'view ' when 'm' then 'materialized view '
                          when 'f' then 'foreign table ' end || c.oid::regclass,
           concat_ws(E'\\n', 'owner ' || pg_get_userbyid(c.relowner), 'persistence ' || c.relpersistence::text,
             'options ' || coalesce(array_to_string(c.reloptions, ', '), 'none'),
             'row level security ' || c.relrowsecurity || ', forced ' || c.relforcerowsecurity,
             'acl ' || ${acl('c.relacl')},
             case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end,
             (select string_agg(format('column %s %s%s%s%s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                       case when a.attnotnull then ' not null' end,
                       case when a.attidentity::text <> '' then ' identity ' || a.attidentity::text end,
                       case when a.attgenerated::text <> '' then ' generated as ' || pg_get_expr(d.adbin, d.adrelid)
                            when d.adbin is not null then ' default ' || pg_get_expr(d.adbin, d.adrelid) end,
                       case when a.attcollation <> 0 and a.attcollation <> (select typcollation from pg_type where oid = a.atttypid)
                            then ' collate ' || a.attcollation::regcollation end,
                       case when a.attacl is not null then ' acl ' || ${acl('a.attacl')} end), E'\\n' order by a.attnum)
              from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped))
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where ${OURS} and c.relkind in ('r', 'p', 'v', 'm', 'f') and ${notInExtension('pg_class', 'c.oid')}`,
  `select 'constraint ' || c.conname || ' on ' || coalesce(c.conrelid::regclass::text, c.contypid::regtype::text),
           pg_get_constraintdef(c.oid)
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace where ${OURS}`,
  `select 'index ' || c.oid::regclass, pg_get_indexdef(c.oid)
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
    where ${OURS}`,
  `select 'sequence ' || s.seqrelid::regclass,
           format(E'owner %s\\nacl %s\\n%s start %s increment %s min %s max %s cache %s cycle %s\\nlast value %s',
                  pg_get_userbyid(c.relowner), ${acl('c.relacl')}, s.seqtypid::regtype, s.seqstart, s.seqincrement,
                  s.seqmin, s.seqmax, s.seqcache, s.seqcycle, pg_sequence_last_value(s.seqrelid))
    from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
    where ${OURS}`,
  `select format('policy %I on %s.%s', policyname, schemaname, tablename),
           concat_ws(E'\\n', permissive || ' for ' || cmd || ' to ' || array_to_string(roles, ', '),
             'using ' || qual, 'with check ' || with_check)
    from pg_policies`,
  `select 'trigger ' || t.tgname || ' on ' || t.tgrelid::regclass, pg_get_triggerdef(t.oid) || E'\\nenabled ' || t.tgenabled::text
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where ${OURS} and not t.tgisinternal`,
  `select 'function ' || p.oid::regprocedure,
           pg_get_functiondef(p.oid) || E'\\nowner ' || pg_get_userbyid(p.proowner) || E'\\nacl ' || ${acl('p.proacl')}
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where ${OURS} and p.prokind in ('f', 'p', 'w') and ${notInExtension('pg_proc', 'p.oid')}`,
  `select 'publication ' || pubname || ' table ' || schemaname || '.' || tablename, 'published'
    from pg_publication_tables`,
  `select 'default privileges of ' || pg_get_userbyid(defaclrole) || ' in ' || coalesce(defaclnamespace::regnamespace::text, 'all schemas')
           || ' on ' || defaclobjtype::text, ${acl('defaclacl')}
    from pg_default_acl`,
  `select 'comment on ' || o.type || ' ' || o.identity, d.description
    from pg_description d cross join lateral pg_identify_object(d.classoid, d.objoid, d.objsubid) o
    where (o.schema is not null and ${isOurs('o.schema')} or o.type = 'schema' and o.identity <> 'public' and ${isOurs('o.identity')})
      and not exists (select 1 from pg_depend x where x.classid = d.classoid and x.objid = d.objoid and x.deptype = 'e')`,
];

// The reference data every database starts with, by table and order.
const ROWS = { 'app.settings': 'key', 'public.teams': 'id' };

/** The catalog of the database at `sql`'s connection (names schema-qualified: an empty search_path). */
export async function readCatalog(sql: postgres.Sql): Promise<Catalog> {
  const catalog: Catalog = new Map();
  await sql.begin(async (tx) => {
    await tx`set local search_path = ''`;
    const queries = [...QUERIES];
    for (const [table, order] of Object.entries(ROWS)) {
      const [{ exists }] = await tx`select to_regclass(${table}) is not null as exists`;
      if (exists)
        queries.push(
          `select 'rows of ${table}', string_agg(to_jsonb(r)::text, E'\\n' order by r.${order}) from ${table} r`,
        );
    }
    for (const query of queries) {
      for (const { key, value } of await tx.unsafe(`select key, value from (${query}) q (key, value)`))
        catalog.set(key, value ?? '');
    }
  });
  return catalog;
}

/** The differences between two catalogs, as readable text (empty when they agree). */
export function describeDifferences(
  expected: Catalog,
  actual: Catalog,
  names: { expected: string; actual: string },
): string {
  const report: string[] = [];
  for (const key of [...new Set([...expected.keys(), ...actual.keys()])].sort()) {
    const before = expected.get(key);
    const after = actual.get(key);
    if (before === after) continue;
    if (after === undefined) report.push(`${key}: only in ${names.expected}`, indent(before!));
    else if (before === undefined) report.push(`${key}: only in ${names.actual}`, indent(after));
    else report.push(`${key}: differs (- ${names.expected}, + ${names.actual})`, ...lineDiff(before, after));
  }
  return report.join('\n');
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');

/** The changed lines of two texts with two lines of context (a longest-common-subsequence diff). */
function lineDiff(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const lines: { mark: ' ' | '-' | '+'; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ mark: ' ', text: a[i] });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1][j] >= common[i][j + 1])) {
      lines.push({ mark: '-', text: a[i++] });
    } else {
      lines.push({ mark: '+', text: b[j++] });
    }
  }
  const near = (index: number) => lines.slice(Math.max(0, index - 2), index + 3).some((line) => line.mark !== ' ');
  const shown: string[] = [];
  lines.forEach((line, index) => {
    if (near(index)) shown.push(`  ${line.mark} ${line.text}`);
    else if (near(index - 1)) shown.push('    …');
  });
  return shown;
}
