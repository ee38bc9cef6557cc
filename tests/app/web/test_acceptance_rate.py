"""The acceptance rate over real Postgres rows of a batch with samples in flight: accepted over
finished (accepted + rejected), overall and per bucket, as /v1/stats/difficulty serves it."""

from __future__ import annotations

import hashlib

from app.db.models import Batch, Program, Sample
from app.stats import repository
from app.stats.service import acceptance_rate, fold_difficulty

STATUSES = ["accepted"] * 3 + ["rejected"] + ["pending"] * 4 + ["executed"] * 2


def test_samples_in_flight_do_not_lower_the_acceptance_rate(pg_session) -> None:
    batch = Batch(spec={"levels": ["C1"], "programs": 1}, seed=1, status="running", teacher="builtin",
                  programs_requested=1)
    pg_session.add(batch)
    pg_session.flush()
    program = Program(batch_id=batch.id, slot=0, origin="builtin", constraint_type="str", constraint_method="upper",
                      level="C1", requested={}, status="kept", source="def f(s):\n    return s.upper()\n", entry_point="f")
    pg_session.add(program)
    pg_session.flush()
    for i, status in enumerate(STATUSES):
        args = repr(str(i))
        pg_session.add(Sample(batch_id=batch.id, program_id=program.id, args_hash=hashlib.sha256(args.encode()).hexdigest(),
                              args_source=args, input_index=i, input_origin="teacher", status=status,
                              reject_reason="too_easy" if status == "rejected" else None,
                              constraint_type="str", constraint_method="upper", level="C1"))
    pg_session.flush()

    stats = fold_difficulty(repository.difficulty_groups(pg_session, batch.id, None), 0)
    assert (stats.total, stats.accepted, stats.rejected) == (10, 3, 1)
    assert stats.acceptance_rate == 0.75  # 3 of the 4 finished; 3 / 10 counted the 6 in flight as refused
    for bucket in (*stats.by_level, *stats.by_type, *stats.by_method):
        assert (bucket.accepted, bucket.rejected, bucket.acceptance_rate) == (3, 1, 0.75)
    assert acceptance_rate(0, 0) is None  # nothing finished yet: no rate, not 0%
