from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_job_charts_response_200_window import (
    AdminJobChartsResponse200Window,
    check_admin_job_charts_response_200_window,
)

if TYPE_CHECKING:
    from ..models.admin_job_charts_response_200_pools_item import (
        AdminJobChartsResponse200PoolsItem,
    )


T = TypeVar("T", bound="AdminJobChartsResponse200")


@_attrs_define
class AdminJobChartsResponse200:
    """
    Attributes:
        generated_at (str):
        org (None | str):
        system (bool):
        window (AdminJobChartsResponse200Window):
        step_s (int):
        buckets (list[int]):
        pools (list[AdminJobChartsResponse200PoolsItem]):
    """

    generated_at: str
    org: None | str
    system: bool
    window: AdminJobChartsResponse200Window
    step_s: int
    buckets: list[int]
    pools: list[AdminJobChartsResponse200PoolsItem]

    def to_dict(self) -> dict[str, Any]:
        generated_at = self.generated_at

        org: None | str
        org = self.org

        system = self.system

        window: str = self.window

        step_s = self.step_s

        buckets = self.buckets

        pools = []
        for pools_item_data in self.pools:
            pools_item = pools_item_data.to_dict()
            pools.append(pools_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generated_at": generated_at,
                "org": org,
                "system": system,
                "window": window,
                "step_s": step_s,
                "buckets": buckets,
                "pools": pools,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_job_charts_response_200_pools_item import (
            AdminJobChartsResponse200PoolsItem,
        )

        d = dict(src_dict)
        generated_at = d.pop("generated_at")

        def _parse_org(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        org = _parse_org(d.pop("org"))

        system = d.pop("system")

        window = check_admin_job_charts_response_200_window(d.pop("window"))

        step_s = d.pop("step_s")

        buckets = cast(list[int], d.pop("buckets"))

        pools = []
        _pools = d.pop("pools")
        for pools_item_data in _pools:
            pools_item = AdminJobChartsResponse200PoolsItem.from_dict(pools_item_data)

            pools.append(pools_item)

        admin_job_charts_response_200 = cls(
            generated_at=generated_at,
            org=org,
            system=system,
            window=window,
            step_s=step_s,
            buckets=buckets,
            pools=pools,
        )

        return admin_job_charts_response_200
