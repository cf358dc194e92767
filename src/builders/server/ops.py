"""Operating the server: ``/healthz`` (the process is up and the database answers) and ``/metrics``
(Prometheus text format: accepted actions, round-trip times, open sockets, live games, bot queue).

The metrics of one application live in its own registry (several applications may share a
process, as in the tests). Nothing secret is exported: counts and times only.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

#: the seconds a client is asked to wait (Retry-After) while a dependency is away
RETRY_AFTER = 2
#: round-trip buckets (seconds), from a fast action to a slow one
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _State:
    """Reads the service's counts when Prometheus scrapes (no bookkeeping on the hot path)."""

    def __init__(self, service: Any, store: Any, cluster: Any):
        self.service = service
        self.store = store
        self.cluster = cluster

    def collect(self):
        live = self.service.live.values()
        games = GaugeMetricFamily("builders_live_games", "games held in this process's memory", labels=["status"])
        counts: dict[str, int] = {"open": 0, "running": 0, "finished": 0}
        sockets = 0
        bots = 0
        for g in live:
            counts[g.status] = counts.get(g.status, 0) + 1
            sockets += len(g.clients)
            if g.bot_task is not None and not g.bot_task.done():
                bots += 1
        for status, n in counts.items():
            games.add_metric([status], n)
        yield games
        yield GaugeMetricFamily("builders_open_sockets", "game sockets open on this process", value=sockets)
        yield GaugeMetricFamily("builders_bot_queue", "games whose bot is to move or thinking", value=bots)
        yield GaugeMetricFamily(
            "builders_acting",
            "1 if this process holds the lease (plays the bots)",
            value=1 if self.service.acting else 0,
        )
        writes = CounterMetricFamily("builders_writes", "database writes of games", labels=["kind"])
        for kind, n in self.store.stats.items():
            writes.add_metric([kind], n)
        yield writes
        yield CounterMetricFamily(
            "builders_accepted_actions",
            "actions accepted (committed) by this process",
            value=self.store.stats["append"],
        )
        pool = getattr(self.service.bots, "pool", None)
        if pool is not None:
            yield from pool_metrics(pool)
        jobs = getattr(self.service.bots, "jobs", None)
        if jobs is not None:
            counts = CounterMetricFamily(
                "builders_bot_jobs",
                "bot moves and analyses sent to workers on Redis, by what became of them "
                "(queued, results, retried after a worker died, fallbacks: computed here after a lost job, "
                "local: computed here with no worker alive)",
                labels=["outcome"],
            )
            for outcome, n in jobs.stats.items():
                counts.add_metric([outcome], n)
            yield counts
        if self.cluster is not None and self.cluster.redis is not None:
            yield CounterMetricFamily(
                "builders_fanout_published", "changes published on Redis", value=self.cluster.published
            )
            yield CounterMetricFamily(
                "builders_fanout_received", "changes of other processes received", value=self.cluster.received
            )


def pool_metrics(pool: Any):
    """The worker pool's depth (tasks waiting, per lane), its busy workers and what became of its
    tasks (:class:`builders.server.workers.WorkerPool`)."""
    waiting = GaugeMetricFamily(
        "builders_worker_queue",
        "tasks waiting for a worker process, by lane (play: bot moves and hints; background: analyses)",
        labels=["lane"],
    )
    busy = GaugeMetricFamily("builders_workers_busy", "worker processes computing a task, by lane", labels=["lane"])
    for lane, n in pool.depth().items():
        waiting.add_metric([lane], n)
    for lane, n in pool.busy().items():
        busy.add_metric([lane], n)
    yield waiting
    yield busy
    yield GaugeMetricFamily("builders_workers", "worker processes of the pool", value=pool.size)
    tasks = CounterMetricFamily(
        "builders_worker_tasks",
        "tasks of the worker pool: done, run again after their "
        "worker died (retried), failed after it died twice, and workers started again "
        "(restarts)",
        labels=["outcome"],
    )
    for outcome, n in pool.stats.items():
        tasks.add_metric([outcome], n)
    yield tasks


class Metrics:
    def __init__(self, service: Any, store: Any, cluster: Any):
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_State(service, store, cluster))
        self.round_trip = Histogram(
            "builders_action_seconds",
            "time to check, commit and answer an action or undo",
            ["via"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.requests = Histogram(
            "builders_http_seconds", "HTTP request handling time", ["kind"], buckets=BUCKETS, registry=self.registry
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)


def install_ops(app: FastAPI, service: Any, store: Any, cluster: Any) -> Metrics:
    metrics = Metrics(service, store, cluster)
    app.state.metrics = metrics

    @app.get("/healthz", include_in_schema=False)
    async def healthz():
        """200 while the process can serve (``degraded`` while Redis is away: it keeps serving its
        own clients), 503 while the database does not answer; each dependency's state is named."""
        started = time.perf_counter()
        body: dict[str, Any] = {"status": "ok"}
        try:
            await asyncio.wait_for(asyncio.to_thread(store.ping), 5)
            body["database"] = "ok"
            body["database_ms"] = round((time.perf_counter() - started) * 1000, 2)
        except Exception:
            body.update(status="failing", database="down", detail="the database does not answer")
        if cluster is not None and cluster.redis_url:
            body["redis"] = "ok" if cluster.redis_up else "down"
            if not cluster.redis_up and body["status"] == "ok":
                body.update(
                    status="degraded",
                    detail="Redis is away: this process serves its own clients "
                    "and polls the database for the others' changes",
                )
        body.update(acting=bool(service.acting), games=len(service.live))
        if body["status"] == "failing":
            return JSONResponse(body, status_code=503, headers={"Retry-After": str(RETRY_AFTER)})
        return body

    @app.get("/metrics", include_in_schema=False)
    async def prometheus():
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    return metrics
