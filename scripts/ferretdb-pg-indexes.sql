-- Operator tuning for FerretDB v1 on PostgreSQL: index-served filter pushdown.
--
-- FerretDB v1 pushes a top-level equality filter `{field: value}` down to PostgreSQL as the jsonb
-- containment `_jsonb -> 'field' @> 'value'` (the key is a statement parameter), and creates its
-- own indexes as btree indexes on `(_jsonb -> 'field')`. A btree cannot serve `@>`, so without
-- this file every query, even a read by `_id`, is a sequential scan of the collection's table.
--
-- This file adds, for every top-level field of every index FerretDB creates, a GIN index
-- `(_jsonb -> 'field') jsonb_path_ops`, which serves exactly that containment (for scalars and for
-- arrays holding the value). An event trigger creates them as FerretDB creates its indexes;
-- permafrost_pg_indexes_on() also backfills existing tables. Two more settings are needed:
--   * plan_cache_mode=force_custom_plan for FerretDB's connections (FerretDB prepares its
--     statements with the field name as a parameter; a generic plan cannot match an expression
--     index, a custom plan can). scripts/ferretdb.sh passes it in the --postgresql-url.
--   * superuser to install it (event triggers). Run it as:
--       psql "$PG_URL" -v ON_ERROR_STOP=1 -f scripts/ferretdb-pg-indexes.sql
--       psql "$PG_URL" -c 'SELECT permafrost_pg_indexes_on()'    -- trigger + backfill
--       psql "$PG_URL" -c 'SELECT permafrost_pg_indexes_off()'   -- drop trigger + GIN indexes
--
-- Only schemas that FerretDB manages (those holding `_ferretdb_database_metadata`) are touched.
-- Index names are `pfgin_` + a hash of schema, table and field; nested fields are skipped
-- (FerretDB v1 does not push dotted filters down by default).

-- Returns the number of fields of the index it covered (an existing GIN index counts too).
CREATE OR REPLACE FUNCTION public.permafrost_gin_for_index(idx oid) RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  tbl oid;
  nsp text;
  relname text;
  natts integer;
  expr text;
  field text;
  made integer := 0;
  iname text;
BEGIN
  SELECT i.indrelid, n.nspname, c.relname, i.indnatts
    INTO tbl, nsp, relname, natts
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_class ic ON ic.oid = i.indexrelid
    JOIN pg_am am ON am.oid = ic.relam
   WHERE i.indexrelid = idx AND am.amname = 'btree';
  IF NOT FOUND OR relname = '_ferretdb_database_metadata' THEN
    RETURN 0;
  END IF;
  IF to_regclass(format('%I.%I', nsp, '_ferretdb_database_metadata')) IS NULL THEN
    RETURN 0;
  END IF;
  FOR k IN 1..natts LOOP
    expr := pg_get_indexdef(idx, k, true);
    -- top-level field only: `_jsonb -> 'field'::text`, optionally parenthesized
    field := substring(expr FROM '^\(?_jsonb -> ''((?:[^'']|'''')*)''::text\)?$');
    CONTINUE WHEN field IS NULL;
    field := replace(field, '''''', '''');
    iname := 'pfgin_' || substr(md5(nsp || '.' || relname || '.' || field), 1, 20);
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin ((_jsonb -> %L) jsonb_path_ops)',
      iname, nsp, relname, field);
    made := made + 1;
  END LOOP;
  RETURN made;
END
$fn$;

CREATE OR REPLACE FUNCTION public.permafrost_gin_on_create_index() RETURNS event_trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT objid FROM pg_event_trigger_ddl_commands()
            WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    PERFORM public.permafrost_gin_for_index(r.objid);
  END LOOP;
END
$fn$;

CREATE OR REPLACE FUNCTION public.permafrost_pg_indexes_on() RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
  made integer := 0;
BEGIN
  DROP EVENT TRIGGER IF EXISTS permafrost_gin_indexes;
  CREATE EVENT TRIGGER permafrost_gin_indexes ON ddl_command_end
    WHEN TAG IN ('CREATE INDEX')
    EXECUTE FUNCTION public.permafrost_gin_on_create_index();
  FOR r IN SELECT i.indexrelid
             FROM pg_index i
             JOIN pg_class c ON c.oid = i.indrelid
             JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE to_regclass(format('%I.%I', n.nspname, '_ferretdb_database_metadata')) IS NOT NULL LOOP
    made := made + public.permafrost_gin_for_index(r.indexrelid);
  END LOOP;
  RETURN made;
END
$fn$;

CREATE OR REPLACE FUNCTION public.permafrost_pg_indexes_off() RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
  dropped integer := 0;
BEGIN
  DROP EVENT TRIGGER IF EXISTS permafrost_gin_indexes;
  FOR r IN SELECT n.nspname, c.relname
             FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind = 'i' AND c.relname LIKE 'pfgin\_%' LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I.%I', r.nspname, r.relname);
    dropped := dropped + 1;
  END LOOP;
  RETURN dropped;
END
$fn$;
