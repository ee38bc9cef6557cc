"""Solver pass@k over real HTTP (the openai client against the fake server): predictions are
parsed and compared by value, never by substring."""

from __future__ import annotations

from tests.fakes.openai_server import FakeOpenAIServer, FakeChatRequest
from workers.pipeline.difficulty import SolverPolicy, score_completion, solver_messages, solver_request
from workers.pipeline.teachers.base import complete_all_sync
from workers.pipeline.teachers.registry import build_teacher

CODE = "def f(xs):\n    return sorted(xs)\n"


def _solver(server: FakeOpenAIServer):
    return build_teacher("student", {
        "kind": "openai", "base_url": server.base_url, "model": "student-7b",
        "backoff_base_s": 0.01, "max_retries": 2, "request_timeout_s": 5.0,
    })


def _score(texts: list[str], gold: dict, args: str = "[2, 1]", code: str = CODE) -> tuple[int, FakeChatRequest]:
    seen: list[FakeChatRequest] = []

    def responder(request: FakeChatRequest) -> list[str]:
        seen.append(request)
        return texts

    policy = SolverPolicy(k=len(texts))
    with FakeOpenAIServer(responder=responder) as server:
        request = solver_request("sample:1/student", code, "f", args, seed=0, policy=policy)
        completion = complete_all_sync(_solver(server), [request])[0]
    assert completion.status == "ok", completion.error
    return score_completion(completion, gold, "f", policy.k).passes, seen[0]


def test_substring_answers_do_not_count_and_respellings_do() -> None:
    gold = {"type": "list", "repr": "[1, 2]", "truncated": False}
    texts = [
        "[ANSWER]assert f([2, 1]) == [1, 2][/ANSWER]",          # exact
        "Reasoning...\n[ANSWER]assert f([2,1]) == [1,2][/ANSWER]",  # other spelling, same value
        "[ANSWER]assert f([2, 1]) == [2, 1][/ANSWER]",          # wrong value
        "The answer contains [1, 2] somewhere in the prose",    # substring only
        "1, 2",                                                 # bare fragment
        "[ANSWER]assert f([2, 1]) == f([2, 1])[/ANSWER]",       # not a literal
        "[ANSWER]assert True or f([2, 1]) == [0][/ANSWER]",     # exploit
    ]
    passes, request = _score(texts, gold)
    assert passes == 2
    assert request.n == 7 and request.body["temperature"] == 1.0
    assert "assert f([2, 1]) == ??" in request.last_user_message


def test_floats_compare_by_value() -> None:
    code = "def f(x):\n    return x / 2\n"
    gold = {"type": "float", "repr": "1.0", "truncated": False}
    texts = ["[ANSWER]assert f(2) == 1.00[/ANSWER]", "[ANSWER]assert f(2) == 1.0[/ANSWER]", "[ANSWER]assert f(2) == 1[/ANSWER]", "the result is 1.0"]
    passes, _ = _score(texts, gold, args="2", code=code)
    assert passes == 2


def test_a_bare_one_in_prose_is_not_a_pass() -> None:
    gold = {"type": "int", "repr": "1", "truncated": False}
    code = "def f(x):\n    return len(x)\n"
    passes, _ = _score(["I think 1 is likely but maybe 10 or 21", "[ANSWER]assert f('a') == 1[/ANSWER]"], gold, args="'a'", code=code)
    assert passes == 1


def test_solver_prompt_is_the_fill_the_assertion_form() -> None:
    (message,) = solver_messages(CODE, "f", "[3, 1]")
    assert message["role"] == "user"
    assert "assert f([3, 1]) == ??" in message["content"]
    assert "literal" in message["content"]
