"""Loads a run's reports (CSV and Parquet) in DuckDB and checks them as
tables: the columns, the row counts, the types, unique row keys, key
columns never NULL, and joins that neither lose nor repeat a row.

    python duckdb_reports.py SPEC.json OUT_DIR

SPEC.json (written by tests/tests/duckdb.rs from recount's own table
list) names each report's columns and their kinds, its row count, its row
key, the key columns that must never be NULL, and the joins. Prints "ok",
or one line per problem and exits 1.
"""

import json
import sys

import duckdb

NUMERIC = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT",
           "UINTEGER", "UBIGINT", "FLOAT", "DOUBLE"}
PARQUET_TYPE = {"Text": "VARCHAR", "Int": "BIGINT", "Float32": "FLOAT", "Float64": "DOUBLE",
                "Bool": "BOOLEAN"}


def main():
    spec = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    con = duckdb.connect()
    problems = []

    def one(sql):
        return con.execute(sql).fetchone()[0]

    for t in spec["tables"]:
        for fmt in ("csv", "parquet"):
            view = f"{t['name']}_{fmt}"
            path = f"{out}/{t['name']}.{fmt}".replace("'", "''")
            source = f"read_csv('{path}')" if fmt == "csv" else f"read_parquet('{path}')"
            con.execute(f"CREATE VIEW {view} AS SELECT * FROM {source}")
            described = con.execute(f"DESCRIBE {view}").fetchall()
            names = [d[0] for d in described]
            if names != t["columns"]:
                problems.append(f"{view}: columns {names}")
                continue
            rows = one(f"SELECT count(*) FROM {view}")
            if rows != t["rows"]:
                problems.append(f"{view}: {rows} rows, the CSV has {t['rows']}")
            for (name, duck, *_), kind in zip(described, t["kinds"]):
                if fmt == "parquet":
                    ok = duck == PARQUET_TYPE[kind]
                elif kind == "Text":
                    ok = True
                elif one(f'SELECT count("{name}") FROM {view}') == 0:
                    ok = True  # an empty column: nothing to type it by
                elif kind == "Bool":
                    ok = duck == "BOOLEAN"
                else:
                    ok = duck in NUMERIC
                if not ok:
                    problems.append(f"{view}.{name}: {duck} for a {kind} column")
            keys = ", ".join(f'"{k}"' for k in t["keys"])
            repeated = one(
                f"SELECT count(*) FROM (SELECT {keys} FROM {view} GROUP BY ALL HAVING count(*) > 1)")
            if repeated:
                problems.append(f"{view}: {repeated} row keys ({keys}) repeat")
        for column, where in t["never_null"]:
            cond = f" AND ({where})" if where else ""
            nulls = one(f'SELECT count(*) FROM {t["name"]}_csv WHERE "{column}" IS NULL{cond}')
            if nulls:
                problems.append(f"{t['name']}.{column}: {nulls} NULL where {where or 'any row'}")

    for fmt in ("csv", "parquet"):
        for j in spec["joins"]:
            child, parent, key = f"{j['child']}_{fmt}", f"{j['parent']}_{fmt}", j["key"]
            where = f" WHERE {j['where']}" if j["where"] else ""
            rows = one(f"SELECT count(*) FROM {child}{where}")
            right = f"(SELECT DISTINCT {key} FROM {parent})" if j["distinct"] else parent
            joined = one(f"SELECT count(*) FROM {child} JOIN {right} p USING ({key}){where}")
            if rows == 0 or joined != rows:
                problems.append(f"{child} JOIN {parent} USING ({key}){where}: {joined} rows of {rows}")

    print("\n".join(problems) if problems else "ok")
    sys.exit(1 if problems else 0)


main()
