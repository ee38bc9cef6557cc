"""`Sandbox.run_pairs_grouped`: one program's calls in shared jobs, with the outcomes that
one job per call and seed gives, whatever a call leaves behind for the next."""

from __future__ import annotations

import json

import pytest

from sandbox import Job, Sandbox
from sandbox.grouped import plan
from tests.sandbox.conftest import TEST_LIMITS

FIELDS = ("id", "status", "result", "exception", "stdout", "stderr", "trace_json",
          "trace_steps", "hash_seed")


def pairs(code: str, *calls: str, trace: bool = True, seeds=(0, 1_000_003), entry: str = "f"):
    return [tuple(Job(id=f"k{i}#{seed}", code=code, entry_point=entry, args=args, trace=trace,
                      hash_seed=seed) for seed in seeds)
            for i, args in enumerate(calls)]


def outcome(run) -> tuple:
    if run.status == "timeout":  # the CPU limit or the wall limit, whichever fires first
        return run.id, run.status, run.hash_seed
    return tuple(getattr(run, name) for name in FIELDS)


class Counting:
    """Counts the jobs a sandbox sends to its forkservers (the wrapped method runs as is)."""

    def __init__(self, sb: Sandbox, monkeypatch) -> None:
        self.jobs = 0
        inner = sb._run_wire

        def counted(job, wire_job):
            self.jobs += 1
            return inner(job, wire_job)

        monkeypatch.setattr(sb, "_run_wire", counted)


def same_as_one_job_each(sb: Sandbox, groups) -> list:
    grouped = sb.run_pairs_grouped(groups)
    alone = [sb.run_pairs(group) for group in groups]
    assert len(grouped) == len(alone)
    for got, want in zip(grouped, alone):
        assert [(outcome(a), outcome(b), same or a.status == "timeout") for a, b, same in got] == \
               [(outcome(a), outcome(b), same or a.status == "timeout") for a, b, same in want]
    return grouped


def test_a_clean_program_takes_three_jobs_for_three_inputs(sb, monkeypatch):
    code = ("def f(words, sep):\n    parts = []\n    for w in words:\n"
            "        if len(w) > 2:\n            parts.append(w.upper())\n"
            "    print(len(parts))\n    return sep.join(parts)\n")
    group = pairs(code, "['ab', 'cde', 'fghi'], '-'", "['xyz'], '+'", "[], ','")
    counter = Counting(sb, monkeypatch)
    [runs] = sb.run_pairs_grouped([group])
    assert counter.jobs == 3  # forward, backward, a fresh job of the middle call
    assert [a.result["repr"] for a, _, _ in runs] == ["'CDE-FGHI'", "'XYZ'", "''"]
    assert [a.stdout for a, _, _ in runs] == ["2\n", "1\n", "0\n"]  # each call's own output
    assert all(same for _, _, same in runs)
    assert [(a.id, b.id, b.hash_seed) for a, b, _ in runs] == [
        ("k0#0", "k0#1000003", 1_000_003), ("k1#0", "k1#1000003", 1_000_003),
        ("k2#0", "k2#1000003", 1_000_003)]
    assert runs[0][0].trace["steps"] and runs[0][1].trace_json is runs[0][0].trace_json
    same_as_one_job_each(sb, [group])


@pytest.mark.parametrize("code", [
    # a module changed by one call and read by the next
    "import string\ndef f(x):\n    string.digits = string.digits[:-1]\n    return len(string.digits) + x\n",
    # builtins replaced by a call (restored between calls; the comparison holds anyway)
    "import builtins\ndef f(x):\n    r = len([x])\n    builtins.len = lambda v: 99\n    return r + x\n",
    # state that only the middle input reads: its fresh job gives it away
    "import math\ndef f(x):\n    if x == 2:\n        return math.tau\n    math.tau = 0.5\n    return x\n",
    # a class attribute of a standard module's class
    "import json\ndef f(x):\n    json.JSONEncoder.item_separator = json.JSONEncoder.item_separator + '.'\n"
    "    return json.JSONEncoder.item_separator * x\n",
    # random drawn across calls: each call draws from a freshly seeded module
    "def f(x):\n    import random\n    return random.randrange(1000) + x\n",
])
def test_a_call_never_sees_what_an_earlier_call_left(sb, code):
    [runs] = same_as_one_job_each(sb, [pairs(code, "1", "2", "3")])
    assert all(a.status == "ok" for a, _, _ in runs)


def test_calls_that_end_the_process_or_run_long_fall_back_to_one_job_each(sb, monkeypatch):
    exits = "import os\ndef f(x):\n    if x == 2:\n        os._exit(0)\n    return x\n"
    loops = "def f(x):\n    while x == 2:\n        pass\n    return x\n"  # stopped at 1 s shared
    prints = "def f(x):\n    print('y' * x)\n    return x\n"  # over the output cap together
    raises = "def f(x):\n    return 10 // (x - 2)\n"
    limit = TEST_LIMITS.output_bytes
    counter = Counting(sb, monkeypatch)
    groups = [pairs(exits, "1", "2", "3"), pairs(loops, "1", "2", "3", trace=False),
              pairs(prints, str(limit // 2), str(limit // 2), "1"), pairs(raises, "1", "2", "3")]
    grouped = same_as_one_job_each(sb, groups)
    assert [a.status for a, _, _ in grouped[0]] == ["ok", "killed", "ok"]
    assert [a.status for a, _, _ in grouped[1]] == ["ok", "timeout", "ok"]
    assert [a.status for a, _, _ in grouped[2]] == ["ok", "ok", "ok"]
    assert [a.status for a, _, _ in grouped[3]] == ["ok", "exception", "ok"]
    # grouped: 3 shared jobs each, and 6 single ones for the three that fell back (the
    # raising one did not); then 6 each for the comparison, one job per call and seed
    assert counter.jobs == 4 * 3 + 3 * 6 + 4 * 6


def test_hash_order_dependence_is_judged_from_one_job_each(sb):
    code = "def f(x):\n    return list({'a', 'b', 'c', 'd', 'e', 'f'}) + [x]\n"
    [runs] = same_as_one_job_each(sb, [pairs(code, "1", "2", "3")])
    assert not any(same for _, _, same in runs)


def test_trace_limit_and_refused_calls_keep_their_own_verdict(sb):
    long = "def f(n):\n    t = 0\n    for i in range(n):\n        t += i\n    return t\n"
    groups = [pairs(long, "3", "100000", "4"), pairs(long, "1", "2) or (3", "5")]
    grouped = same_as_one_job_each(sb, groups)
    assert [a.status for a, _, _ in grouped[0]] == ["ok", "trace_limit", "ok"]
    assert grouped[1][1][0].exception["type"] == "SyntaxError"


def test_only_one_programs_pairs_under_two_seeds_are_shared():
    code = "def f(x):\n    return x\n"
    assert plan(pairs(code, "1"), TEST_LIMITS) is None  # nothing to share
    assert plan(pairs(code, "1", "2", seeds=(0, 0)), TEST_LIMITS) is None
    mixed = pairs(code, "1", "2") + pairs("def f(x):\n    return -x\n", "3")
    assert plan(mixed, TEST_LIMITS) is None
    shared = plan(pairs(code, "1", "2", "3"), TEST_LIMITS)
    assert shared.forward[1]["calls"] == ["1", "2", "3"]
    assert shared.backward[1]["calls"] == ["3", "2", "1"]
    assert [i for i, _ in shared.fresh] == [1]
    # a call of a shared job gets one second at most (a slower one gets a job of its own)
    assert shared.forward[1]["limits"]["timeout_s"] == 3 * 1.0 and shared.forward[1]["call_cpu_s"] == 1.0


def test_a_call_that_loops_ends_the_shared_job_after_its_second(sb):
    import os
    import signal

    loops = "def f(x):\n    while x == 2:\n        pass\n    return x\n"
    shared = plan(pairs(loops, "1", "2", "3", trace=False), TEST_LIMITS)
    _, report, _ = sb._run_wire(*shared.forward)
    assert os.WIFSIGNALED(report.wait_status) and os.WTERMSIG(report.wait_status) == signal.SIGPROF
    assert 900 <= report.cpu_ms < 1500  # the call's second, not the job's wall limit (3 s)


# A str subclass whose __eq__ reads the calling frame (defaultdict(locals).__getitem__ on a
# miss) put where the runtime copies or writes a dict between calls: the builtins (copied
# before the next call) and sys.modules (the next call's module is stored under the same
# name). Compared there, it saw run_calls' locals: the job key, the result lines, emit()
# (session 22, eighth red-team pass). Now those go through sandbox/boundary.py.
COLLIDING_KEYS = (
    "import builtins, collections, math, sys\n"
    "seen = collections.defaultdict(locals)\n"
    "class K(str):\n    __eq__ = seen.__getitem__\n    __hash__ = str.__hash__\n"
    "def f(a):\n"
    "    if not hasattr(math, 'seen'):\n"
    "        math.seen = seen\n"
    "        d = builtins.__dict__\n"
    "        d[K('spy')] = 1\n        d['zz'] = 1\n        del d['zz']\n        d[str('spy')] = 2\n"
    "        sys.modules.pop('__execsynth__', None)\n"
    "        sys.modules[K('__execsynth__')] = None\n"
    "        return 0\n"
    "    return sorted({name for names in math.seen.values() for name in names})\n")


def shared_job_text(sb: Sandbox, code: str, trace: bool = True) -> str:
    """The raw result frame of the first shared job of `code` called on 1 and 2 (what a
    later call reports is read from it before the host compares anything)."""
    shared = plan(pairs(code, "1", "2", trace=trace), sb.limits)
    sb._ensure_started()
    _, report, _ = sb._run_wire(*shared.forward)
    text = report.result.decode(errors="replace")
    assert '"call": 1' in text, text[:500]
    return text


def test_keys_the_program_plants_never_run_in_the_runtime_frames(sb):
    text = shared_job_text(sb, COLLIDING_KEYS, trace=False)
    assert '"status": "ok"' in text, text[:500]
    for name in ("key", "emit", "lines", "payload", "refused"):
        assert f"'{name}'" not in text, text[:800]


# A grouped job makes a tracer for every call: it read sys.monitoring and imported the
# monitoring tracer after the program ran, so a program that set sys.monitoring and put
# its own module under that name in sys.modules supplied the tracer and was handed the
# runtime's on_limit and permitted (eleventh red-team pass).
OWN_TRACER = (
    "import math, sys, types\n"
    "def mine(module_code, max_steps, value_chars, on_limit, permitted, max_chars):\n"
    "    math.GOT = sorted(on_limit.__code__.co_freevars)\n"
    "    return types.SimpleNamespace(steps=[], start=lambda: None, stop=lambda: None, tampered=lambda: False)\n"
    "def f(a):\n"
    "    if not hasattr(math, 'armed'):\n"
    "        math.armed = True\n"
    "        sys.monitoring = 1\n"
    "        sys.modules['sandbox'] = types.ModuleType('sandbox')\n"
    "        module = types.ModuleType('sandbox.tracing_monitoring')\n"
    "        module.monitoring_tracer = mine\n"
    "        sys.modules['sandbox.tracing_monitoring'] = module\n"
    "    return getattr(math, 'GOT', None)\n")


def test_a_call_cannot_supply_the_next_calls_tracer(sb):
    text = shared_job_text(sb, OWN_TRACER)
    assert "payload" not in text and "emit" not in text, text[:800]
    assert text.count('"event": "call"') >= 2  # both calls traced by the runtime's tracer


# The kept list (sandbox/boundary.py) is reachable from the program through the globals of
# a boundary.call frame: a grouped job once kept each call's tracer there, whose closures
# led to emit() and the key (twelfth red-team pass). Nothing of the runtime's goes in it.
KEPT_CONTENTS = (  # (in C: a traced loop over the kept objects would pass the trace cap)
    "import collections, functools, math, operator\n"
    "def f(a):\n"
    "    if not hasattr(math, 'seen'):\n"
    "        seen = collections.defaultdict(globals)\n"
    "        class R:\n"
    "            __repr__ = functools.partial(seen.__getitem__, 'k')\n"
    "        math.seen = seen\n"
    "        return R()\n"
    "    return sorted(set(map(operator.attrgetter('__name__'), map(type, math.seen['k']['KEPT']))))\n")


def test_nothing_of_the_runtime_is_kept_where_the_program_reaches(sb):
    text = shared_job_text(sb, KEPT_CONTENTS)
    [second] = [json.loads(line) for line in text.splitlines() if line.startswith('{"status"') and '"call": 1' in line]
    kinds = second["result"]["json"]
    assert "R" in kinds, kinds  # what the program made is there
    assert not {"SimpleNamespace", "function", "cell", "frame"} & set(kinds), kinds


# A later call of a shared job can rewrite what an earlier one wrote (pwrite at offset 0):
# the first call, clean in the forward order, then reported the later call's text
# (thirteenth red-team pass). Each call's output is digested at its end, and checked.
REWRITES_EARLIER_OUTPUT = (
    "import json, os, sys\n"
    "def f(a):\n"
    "    if a == 0:\n"
    "        print('Z' if hasattr(json, '_seen') else 'A')\n"
    "    elif hasattr(json, '_seen'):\n"
    "        sys.stdout.flush()\n"
    "        os.pwrite(1, b'Z\\n', 0)\n"
    "    json._seen = 1\n"
    "    return a\n")


def test_a_call_cannot_rewrite_what_an_earlier_call_printed(sb):
    [runs] = same_as_one_job_each(sb, [pairs(REWRITES_EARLIER_OUTPUT, "0", "1", trace=False)])
    assert runs[0][0].stdout == "A\n"
