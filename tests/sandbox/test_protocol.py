"""The host/forkserver protocol: run reports, host-side judging, call checks, run pairs."""

from __future__ import annotations

import os
import signal

from sandbox import Job, Sandbox, same_behaviour, wire
from sandbox.calls import call_error
from sandbox.child import EXIT_CHANNEL_LOST, result_frame
from sandbox.verdict import judge

from .conftest import TEST_LIMITS, job

KEY = b"k" * 32
WIRE_JOB = {"id": "j", "hash_seed": 0, "limits": TEST_LIMITS.to_wire()}


def _report(result: bytes = b"", **kw) -> wire.RunReport:
    fields = {"wait_status": 0, "timed_out": False, "duration_ms": 1.5, "cpu_ms": 1.0,
              "result": result, "stdout": b"", "stderr": b""}
    fields.update(kw)
    return wire.RunReport(**fields)


def _frame(text: str) -> bytes:
    return result_frame(text.encode(), KEY)


def test_report_round_trips_through_a_pipe():
    report = _report(_frame('{"status": "ok"}'), stdout="h\u00e9\n".encode(), stderr=b"e" * 70000,
                     stdout_over=True, wait_status=9, timed_out=True, cpu_ms=2.25)
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
        if pid == 0:  # a writer on the other side, so a big report cannot fill the pipe
            os.close(read_fd)
            wire.write_report(write_fd, report)
            os._exit(0)
        os.close(write_fd)
        back = wire.read_reply(read_fd)
        os.waitpid(pid, 0)
    finally:
        os.close(read_fd)
    assert isinstance(back, wire.RunReport)
    for name in wire.RunReport.__slots__:
        assert getattr(back, name) == getattr(report, name), name


def test_json_replies_still_read_as_dicts():
    read_fd, write_fd = os.pipe()
    wire.write_frame(write_fd, {"id": "x", "status": "sandbox_error"})
    os.close(write_fd)
    assert wire.read_reply(read_fd) == {"id": "x", "status": "sandbox_error"}
    os.close(read_fd)


def test_judge_reads_the_payload_and_applies_the_output_cap():
    ok = judge(WIRE_JOB, _report(_frame('{"status": "ok", "result": {"type": "int", '
                                        '"repr": "1", "json": 1, "truncated": false}}'),
                                 stdout=b"hi\xff\n"), "3.11.0")
    assert (ok.status, ok.result["repr"], ok.stdout, ok.python) == ("ok", "1", "hi\ufffd\n", "3.11.0")
    over = judge(WIRE_JOB, _report(_frame('{"status": "ok"}'), stdout_over=True), "")
    assert over.status == "output_limit"


def test_judge_never_takes_a_verdict_from_a_damaged_channel():
    garbage = judge(WIRE_JOB, _report(b"XSR1 not a frame"), "")
    assert (garbage.status, garbage.exception["type"]) == ("killed", "ResultCorrupted")
    unknown = judge(WIRE_JOB, _report(_frame('{"status": "fine"}')), "")
    assert unknown.status == "killed"
    nested = judge(WIRE_JOB, _report(_frame('{"status": "ok", "result": ' + "[" * 100000)), "")
    assert nested.status == "killed"
    lost = judge(WIRE_JOB, _report(wait_status=EXIT_CHANNEL_LOST << 8), "")
    assert lost.exception["type"] == "ResultChannelLost"
    cpu = judge(WIRE_JOB, _report(wait_status=signal.SIGKILL, cpu_ms=10_000.0), "")
    assert cpu.status == "timeout"
    wall = judge(WIRE_JOB, _report(_frame('{"status": "ok"}'), timed_out=True), "")
    assert wall.status == "timeout" and "wall time" in wall.exception["message"]


def test_same_behaviour_of_reports_is_exact_and_excludes_signals():
    a = _report(_frame('{"status": "ok"}'), stdout=b"x")
    assert a.same_behaviour(_report(_frame('{"status": "ok"}'), stdout=b"x", duration_ms=9.0))
    assert not a.same_behaviour(_report(_frame('{"status": "ok"}'), stdout=b"y"))
    assert not a.same_behaviour(_report(_frame('{"status": "ok" }'), stdout=b"x"))
    killed = _report(wait_status=signal.SIGKILL)
    assert not killed.same_behaviour(_report(wait_status=signal.SIGKILL))
    # each job hashes its frame under its own key: the same body under two keys is the same
    other_key = _report(result_frame(b'{"status": "ok"}', b"j" * 32), stdout=b"x")
    assert other_key.result != a.result and a.same_behaviour(other_key)


def test_call_text_is_checked_on_the_host():
    assert call_error("f", "1, [2, 3], k='v'") is None
    assert call_error("f", "*a, **{'b': 1}") is None
    assert call_error("f", "x for x in range(3)") is None
    assert call_error("f", "1,  # a comment\n") is None
    for args in ("1), print(2", "1) or g(2", "1)(2", "1)[0", "1) if 1 else (2"):
        assert isinstance(call_error("f", args), SyntaxError), args
    # text that is not valid at all is left to the child's compile (its own SyntaxError)
    assert call_error("f", "'unclosed") is None and call_error("f", "[1, 2") is None
    assert str(call_error("f", "1) + (2")) == "args must be exactly the text between the call's parentheses"
    assert "never closed" in str(call_error("f", "1) + ((2"))  # invalid and breaking out


def test_refused_calls_are_the_verdict_the_job_would_give(sb):
    r = sb.run(Job(id="x", code="def f(a):\n    return a\n", entry_point="f", args="1) or g(2"))
    assert (r.status, r.exception["type"], r.id, r.stdout) == ("exception", "SyntaxError", "x", "")
    bad = sb.run(job("def f(a):\n    return a\n", args="[1, 2"))
    assert (bad.status, bad.exception["type"]) == ("exception", "SyntaxError")


def test_run_pairs_decode_an_identical_second_run_once(sb):
    code = "def f(a):\n    print(a)\n    return sorted({'x', 'y', 'z'}) + [a]\n"
    first_job = Job(id="k#0", code=code, entry_point="f", args="1", trace=True, hash_seed=0)
    second_job = Job(id="k#1", code=code, entry_point="f", args="1", trace=True, hash_seed=1)
    [(first, second, same)] = sb.run_pairs([(first_job, second_job)])
    assert same is True and same_behaviour(first, second)
    assert (first.id, first.hash_seed, second.id, second.hash_seed) == ("k#0", 0, "k#1", 1)
    assert second.trace == first.trace and second.stdout == "1\n" and second.duration_ms > 0
    assert second.trace_json is first.trace_json  # the second run was not decoded again
    alone = sb.run(second_job)
    assert same_behaviour(alone, second) and alone.to_dict().keys() == second.to_dict().keys()


def test_run_pairs_judge_a_differing_second_run_in_full(sb):
    code = "def f():\n    print(*{'a', 'b', 'c', 'd', 'e', 'f', 'g'})\n    return 1\n"
    pairs = [(job(code, id="a", hash_seed=0), job(code, id="b", hash_seed=7)),
             (job("def f():\n    return 2\n", id="c"), job("def f():\n    return 2\n", id="d", hash_seed=3))]
    (a, b, same_ab), (c, d, same_cd) = sb.run_pairs(pairs)
    assert same_ab is False and a.stdout != b.stdout and a.result == b.result
    assert same_cd is True and c.result["repr"] == d.result["repr"] == "2"


def test_random_is_not_in_the_forkserver_and_is_seeded_when_imported(sb):
    probe = "import sys\ndef f():\n    return 'random' in sys.modules\n"
    assert sb.run(job(probe)).result["json"] is False
    draws = "def f():\n    import random\n    return [random.random(), random.randrange(100)]\n"
    a, b = sb.run_many([job(draws, id="1"), job(draws, id="2")])
    assert a.status == "ok" and a.result == b.result
    import random

    random.seed(0)
    assert a.result["json"] == [random.random(), random.randrange(100)]


def test_random_imports_for_a_job_uid_that_cannot_read_the_stdlib():
    # rlimits mode runs jobs as nobody; the module is built from code compiled beforehand
    with Sandbox(isolation="rlimits", workers=1, limits=TEST_LIMITS) as box:
        r = box.run(job("import random\ndef f():\n    return random.Random(5).random()\n"))
    import random

    assert r.status == "ok" and r.result["json"] == random.Random(5).random()


def _original_check(entry: str, args: str) -> BaseException | None:
    """What the job child used to do: parse, then require one call of the entry point."""
    import ast

    try:
        tree = ast.parse(f"{entry}({args})", filename="<call>", mode="eval")
        compile(tree, "<call>", "eval")
    except (SyntaxError, ValueError) as exc:
        return exc
    body = tree.body
    if not (isinstance(body, ast.Call) and isinstance(body.func, ast.Name) and body.func.id == entry):
        return SyntaxError("args must be exactly the text between the call's parentheses")
    return None


def _new_check(entry: str, args: str) -> BaseException | None:
    """The host's check, then the child's compile."""
    error = call_error(entry, args)
    if error is None:
        try:
            compile(f"{entry}({args})", "<call>", "eval")
        except (SyntaxError, ValueError) as exc:
            return exc
    return error


PIECES = ["1", "x", ")", "(", "[", "]", "{", "}", ", ", " or ", "'a)'", '"b("', "'''c)\n'''",
          '"""d("""', "r'\\''", "'\\')'", "f'{(1)}'", "b')'", " # c)\n", "\\\n", "\n", "k=",
          "lambda y: y", "*", "**", " for q in r", ":", "+", "'", '"""', "#"]


def test_host_check_and_child_compile_refuse_exactly_what_the_old_check_did():
    import random
    import warnings

    rng = random.Random(7)
    refused = accepted = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(20000):
            args = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 7)))
            old, new = _original_check("f", args), _new_check("f", args)
            assert (type(old), str(old)) == (type(new), str(new)), args
            refused += old is not None
            accepted += old is None
    assert refused > 1000 and accepted > 500
