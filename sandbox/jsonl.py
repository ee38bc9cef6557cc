"""The batch JSONL contract (ARCHITECTURE.md): input lines to Jobs, results to output lines.

Input: `{"id", "code", "entry_point", "args", "trace"?, "hash_seed"?}` per line. Output: one
line per input line with the same `id`. A line that cannot be read becomes a
`sandbox_error` line naming the problem (with its id when one could be read), so the
one-line-per-line promise holds even for bad input.
"""

from __future__ import annotations

import json

from .jobs import Job, Limits
from .result import RunResult

REQUIRED = ("id", "code", "entry_point", "args")


class InvalidLine(ValueError):
    def __init__(self, message: str, job_id) -> None:
        super().__init__(message)
        self.job_id = job_id


def job_from_line(line: str, number: int, trace_default: bool = False,
                  limits: Limits | None = None) -> Job:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidLine(f"line {number}: not JSON ({exc.msg})", None) from None
    if not isinstance(data, dict):
        raise InvalidLine(f"line {number}: expected a JSON object", None)
    job_id = data.get("id")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise InvalidLine(f"line {number}: missing {', '.join(missing)}", job_id)
    if not isinstance(job_id, (str, int)) or isinstance(job_id, bool):
        raise InvalidLine(f"line {number}: id must be a string or an integer", job_id)
    trace = data.get("trace", trace_default)
    if trace is None:
        trace = trace_default
    if not isinstance(trace, bool):
        raise InvalidLine(f"line {number}: trace must be true, false or absent", job_id)
    try:
        return Job(id=str(job_id), code=data["code"], entry_point=data["entry_point"],
                   args=data["args"], trace=trace, hash_seed=data.get("hash_seed", 0),
                   limits=limits)
    except (TypeError, ValueError) as exc:
        raise InvalidLine(f"line {number}: {exc}", job_id) from None


def error_line(error: InvalidLine) -> str:
    result = RunResult(id="", status="sandbox_error",
                       exception={"type": "InvalidInput", "message": str(error)})
    data = result.to_dict()
    data["id"] = error.job_id if isinstance(error.job_id, (str, int)) else None
    return json.dumps(data)


def result_line(result: RunResult, raw_id=None) -> str:
    data = result.to_dict()
    if raw_id is not None:
        data["id"] = raw_id
    return json.dumps(data)
