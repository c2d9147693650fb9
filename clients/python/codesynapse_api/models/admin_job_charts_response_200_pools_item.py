from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminJobChartsResponse200PoolsItem")


@_attrs_define
class AdminJobChartsResponse200PoolsItem:
    """
    Attributes:
        pool (str):
        ended (list[float]):
        failed (list[float]):
        wait_p50 (list[float | None]): Seconds; null where no job of the pool ended in the bucket.
        wait_p95 (list[float | None]): Seconds; null where no job of the pool ended in the bucket.
        run_p50 (list[float | None]): Seconds; null where no job of the pool ended in the bucket.
        run_p95 (list[float | None]): Seconds; null where no job of the pool ended in the bucket.
        depth (list[float]):
    """

    pool: str
    ended: list[float]
    failed: list[float]
    wait_p50: list[float | None]
    wait_p95: list[float | None]
    run_p50: list[float | None]
    run_p95: list[float | None]
    depth: list[float]

    def to_dict(self) -> dict[str, Any]:
        pool = self.pool

        ended = self.ended

        failed = self.failed

        wait_p50 = []
        for wait_p50_item_data in self.wait_p50:
            wait_p50_item: float | None
            wait_p50_item = wait_p50_item_data
            wait_p50.append(wait_p50_item)

        wait_p95 = []
        for wait_p95_item_data in self.wait_p95:
            wait_p95_item: float | None
            wait_p95_item = wait_p95_item_data
            wait_p95.append(wait_p95_item)

        run_p50 = []
        for run_p50_item_data in self.run_p50:
            run_p50_item: float | None
            run_p50_item = run_p50_item_data
            run_p50.append(run_p50_item)

        run_p95 = []
        for run_p95_item_data in self.run_p95:
            run_p95_item: float | None
            run_p95_item = run_p95_item_data
            run_p95.append(run_p95_item)

        depth = self.depth

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pool": pool,
                "ended": ended,
                "failed": failed,
                "wait_p50": wait_p50,
                "wait_p95": wait_p95,
                "run_p50": run_p50,
                "run_p95": run_p95,
                "depth": depth,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pool = d.pop("pool")

        ended = cast(list[float], d.pop("ended"))

        failed = cast(list[float], d.pop("failed"))

        wait_p50 = []
        _wait_p50 = d.pop("wait_p50")
        for wait_p50_item_data in _wait_p50:

            def _parse_wait_p50_item(data: object) -> float | None:
                if data is None:
                    return data
                return cast(float | None, data)

            wait_p50_item = _parse_wait_p50_item(wait_p50_item_data)

            wait_p50.append(wait_p50_item)

        wait_p95 = []
        _wait_p95 = d.pop("wait_p95")
        for wait_p95_item_data in _wait_p95:

            def _parse_wait_p95_item(data: object) -> float | None:
                if data is None:
                    return data
                return cast(float | None, data)

            wait_p95_item = _parse_wait_p95_item(wait_p95_item_data)

            wait_p95.append(wait_p95_item)

        run_p50 = []
        _run_p50 = d.pop("run_p50")
        for run_p50_item_data in _run_p50:

            def _parse_run_p50_item(data: object) -> float | None:
                if data is None:
                    return data
                return cast(float | None, data)

            run_p50_item = _parse_run_p50_item(run_p50_item_data)

            run_p50.append(run_p50_item)

        run_p95 = []
        _run_p95 = d.pop("run_p95")
        for run_p95_item_data in _run_p95:

            def _parse_run_p95_item(data: object) -> float | None:
                if data is None:
                    return data
                return cast(float | None, data)

            run_p95_item = _parse_run_p95_item(run_p95_item_data)

            run_p95.append(run_p95_item)

        depth = cast(list[float], d.pop("depth"))

        admin_job_charts_response_200_pools_item = cls(
            pool=pool,
            ended=ended,
            failed=failed,
            wait_p50=wait_p50,
            wait_p95=wait_p95,
            run_p50=run_p50,
            run_p95=run_p95,
            depth=depth,
        )

        return admin_job_charts_response_200_pools_item
