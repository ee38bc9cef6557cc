"""Amounts of money as the API shows them. Costs are sums of float products
(tokens x price per token), so they carry binary noise such as 0.008460000000000004;
ten decimals keep every real digit of a per-call cost and drop the noise."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

USD_DECIMALS = 10


def round_usd(value: float) -> float:
    return round(value, USD_DECIMALS)


Usd = Annotated[float, AfterValidator(round_usd)]
