"""Group commit for POST /v1/batches.

Creating a batch is little work wrapped in many round trips: the key lookup, the rate-limit
counter, the insert, the commit and the broker publish. Under concurrent load each API process
therefore writes the requests that are waiting as one group: one key lookup, one pipelined
rate-limit round trip, one multi-row insert, one commit and one start message for the whole
group. One writer thread per process does the writing: a request that arrives while a group
is being written joins the next group, which is written as soon as the current one is done;
a lone request is a group of one and waits for nothing (there is no timer).

Every member still gets its own answer, exactly as if it had been alone: 401/403 for its key,
429 for its key's budget (counted in arrival order), 422 for its spec, 200 for an idempotent
replay, 409 for a reused Idempotency-Key with another body, 202 for a new batch. If another
process commits the same Idempotency-Key between our lookup and our insert, the group is
rolled back and its members are written one at a time through `service.create`, which
resolves that race with a savepoint.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from dataclasses import dataclass, field

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.apikeys.guard import auth_error, key_limit, rate_check
from app.apikeys.service import Principal, authenticate_many
from app.batches import repository as repo
from app.batches import service
from app.batches.schemas import BatchCreate, BatchRead
from app.core.config import Settings
from app.core.errors import Conflict, DomainError
from app.core.ratelimit import RateLimiter
from app.db.models import Batch
from app.db.session import session_factory
from app.core.task_names import START_BATCHES
from app.producer import send_after_commit
MAX_GROUP = 256

Answer = tuple[BatchRead, bool] | DomainError  # (batch, created) or the error to raise


@dataclass
class Submission:
    spec: BatchCreate
    presented: str | None  # the API key sent; None where keys are not required
    idempotency_key: str | None
    future: asyncio.Future = field(repr=False)
    loop: asyncio.AbstractEventLoop = field(repr=False)

    def settle(self, answer: Answer | None, error: BaseException | None = None) -> None:
        """Hand the outcome to the request's own event loop (called from the writer thread)."""
        def _set() -> None:
            if self.future.done():  # the client went away and the request was cancelled
                return
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(answer)

        try:
            self.loop.call_soon_threadsafe(_set)
        except RuntimeError:  # that loop is closed: nobody is waiting any more
            pass


class BatchIntake:
    """One per API process. Requests queue their submissions; one writer thread takes
    everything waiting (up to MAX_GROUP) as a group, writes it and answers each member on its
    own event loop. `submit` may be awaited from any event loop."""

    def __init__(self, settings: Settings, limiter: RateLimiter) -> None:
        self._settings = settings
        self._limiter = limiter
        self._queue: queue.SimpleQueue[Submission] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.groups_written = 0  # commits so far (tests read it)

    async def submit(self, spec: BatchCreate, presented: str | None, idempotency_key: str | None) -> tuple[BatchRead, bool]:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._ensure_writer()
        self._queue.put(Submission(spec, presented, idempotency_key, future, loop))
        answer = await future
        if isinstance(answer, DomainError):
            raise answer
        return answer

    def _ensure_writer(self) -> None:
        with self._start_lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(target=self._run, name="batch-intake", daemon=True)
                self._writer.start()

    def _run(self) -> None:
        while True:
            group = [self._queue.get()]  # wait for one, then take whatever else is waiting
            while len(group) < MAX_GROUP:
                try:
                    group.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                answers = self._write(group)
            except Exception as exc:  # the database or the broker failed: every member learns it
                for member in group:
                    member.settle(None, exc)
                continue
            self.groups_written += 1
            for member, answer in zip(group, answers):
                member.settle(answer)

    # ---- the rest runs in the writer thread -------------------------------------------

    def _write(self, group: list[Submission]) -> list[Answer]:
        with session_factory(self._settings.database_url)() as session:
            refused, principals = self._admit(session, group)
            try:
                answers = self._create_all(session, group, refused, principals)
                session.commit()
                return answers
            except IntegrityError:
                session.rollback()  # another process committed one of our idempotency keys
            answers = self._create_each(session, group, refused, principals)
            session.commit()
            return [a if isinstance(a, DomainError) else (BatchRead.model_validate(a[0], from_attributes=True), a[1])
                    for a in answers]

    def _admit(self, session: Session, group: list[Submission]) -> tuple[list[DomainError | None], list[Principal | None]]:
        """Keys, rate limits (in arrival order) and specs: the error for each member refused."""
        refused: list[DomainError | None] = [None] * len(group)
        principals: list[Principal | None] = [None] * len(group)
        keyed = [i for i, m in enumerate(group) if m.presented is not None]
        if keyed:
            found, _touched = authenticate_many(session, [group[i].presented for i in keyed])  # type: ignore[misc]
            allowed = []
            for i in keyed:
                outcome = found[group[i].presented]  # type: ignore[index]
                if isinstance(outcome, DomainError):
                    refused[i] = auth_error(outcome)
                else:
                    principals[i] = outcome
                    allowed.append(i)
            decisions = self._limiter.hit_many([key_limit(principals[i], self._settings) for i in allowed])  # type: ignore[arg-type]
            for i, decision in zip(allowed, decisions):
                refused[i] = rate_check(principals[i], self._settings, decision)  # type: ignore[arg-type]
        for i, member in enumerate(group):
            if refused[i] is None:
                try:
                    service.validate_spec(member.spec, self._settings)
                except DomainError as exc:
                    refused[i] = exc
        return refused, principals

    def _create_all(self, session: Session, group: list[Submission], refused: list[DomainError | None],
                    principals: list[Principal | None]) -> list[Answer]:
        """Replays, conflicts and new batches: one lookup, one multi-row insert, one start message."""
        answers: list[Answer | None] = list(refused)
        wanted = {i: group[i].spec.model_dump(mode="json") for i, r in enumerate(refused) if r is None}
        scoped = {i: service.scoped_key(principals[i].key_id if principals[i] else None, group[i].idempotency_key)
                  for i in wanted}
        existing = {b.idempotency_key: b for b in repo.by_idempotency_keys(session, [k for k in scoped.values() if k])}
        new: dict[int, Batch] = {}
        creator: dict[str, int] = {}  # idempotency key -> the member of this group that creates its batch
        followers: dict[int, int] = {}  # member -> the member whose new batch it replays
        for i, spec_json in wanted.items():
            key = scoped[i]
            if key is not None and key in existing:
                try:
                    answers[i] = (BatchRead.model_validate(service.replay(existing[key], spec_json), from_attributes=True), False)
                except Conflict as exc:
                    answers[i] = exc
            elif key is not None and key in creator:
                first = creator[key]
                if wanted[first] == spec_json:
                    followers[i] = first
                else:
                    answers[i] = Conflict("Idempotency-Key already used by a concurrent request with a different body")
            else:
                if key is not None:
                    creator[key] = i
                new[i] = service.new_batch(self._settings, group[i].spec, spec_json, key,
                                           principals[i].key_id if principals[i] else None)
        if new:
            repo.add_all(session, list(new.values()))  # one INSERT ... RETURNING for all of them
            send_after_commit(session, self._settings, START_BATCHES, [b.id for b in new.values()])
        for i, batch in new.items():
            answers[i] = (BatchRead.model_validate(batch, from_attributes=True), True)
        for i, first in followers.items():
            answers[i] = (answers[first][0], False)  # type: ignore[index]
        return answers  # type: ignore[return-value]

    def _create_each(self, session: Session, group: list[Submission], refused: list[DomainError | None],
                     principals: list[Principal | None]) -> list[DomainError | tuple[Batch, bool]]:
        """The slow path: `service.create` per member, each idempotency race settled by a savepoint."""
        answers: list[DomainError | tuple[Batch, bool]] = []
        for member, error, principal in zip(group, refused, principals):
            if error is not None:
                answers.append(error)
                continue
            try:
                answers.append(service.create(session, self._settings, member.spec, member.idempotency_key,
                                              principal.key_id if principal else None))
            except DomainError as exc:
                answers.append(exc)
        return answers
