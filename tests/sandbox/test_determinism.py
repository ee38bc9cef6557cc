"""Same job, same result; hash-order dependence is detected with two seeds."""

from __future__ import annotations

from sandbox import same_behaviour

from .conftest import job

ORDER_DEPENDENT = "def f():\n    return list({'apple', 'fig', 'kiwi', 'pear', 'plum', 'lime'})\n"
ORDER_FREE = "def f():\n    return sorted({'apple', 'fig', 'kiwi', 'pear', 'plum', 'lime'})\n"


def test_same_job_same_result(sb):
    runs = sb.run_many([job(ORDER_DEPENDENT, id=str(i), trace=True) for i in range(6)])
    assert len({r.result["repr"] for r in runs}) == 1
    assert all(same_behaviour(runs[0], r) for r in runs[1:])


def test_run_twice_flags_hash_order_dependence(sb):
    a, b, same = sb.run_twice(job(ORDER_DEPENDENT), seeds=(0, 1))
    assert (a.hash_seed, b.hash_seed) == (0, 1)
    assert a.status == b.status == "ok"
    assert a.result != b.result and same is False


def test_run_twice_accepts_order_free_programs(sb):
    a, b, same = sb.run_twice(job(ORDER_FREE, trace=True), seeds=(0, 1))
    assert same is True and a.result["repr"] == "['apple', 'fig', 'kiwi', 'lime', 'pear', 'plum']"


def test_stdout_differences_count(sb):
    code = "def f():\n    print(*{'a', 'b', 'c', 'd', 'e', 'f', 'g'})\n    return 1\n"
    a, b, same = sb.run_twice(job(code), seeds=(0, 7))
    assert a.result == b.result and a.stdout != b.stdout and same is False


def test_sets_in_results_are_canonical_under_every_seed(sb):
    a, b, same = sb.run_twice(job("def f():\n    return {'pear', 'apple', 'fig'}\n"), seeds=(3, 4))
    assert same is True and a.result["repr"] == "{'apple', 'fig', 'pear'}"


def test_random_is_seeded_by_the_job(sb):
    code = "import random\ndef f():\n    return random.random()\n"
    first, second = sb.run_many([job(code, id="1"), job(code, id="2")])
    assert first.result == second.result
