from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.jobs_list_response_200_jobs_item import JobsListResponse200JobsItem


T = TypeVar("T", bound="JobsListResponse200")


@_attrs_define
class JobsListResponse200:
    """
    Attributes:
        jobs (list[JobsListResponse200JobsItem]):
        next_before (None | str):
    """

    jobs: list[JobsListResponse200JobsItem]
    next_before: None | str

    def to_dict(self) -> dict[str, Any]:
        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        next_before: None | str
        next_before = self.next_before

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobs": jobs,
                "next_before": next_before,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.jobs_list_response_200_jobs_item import (
            JobsListResponse200JobsItem,
        )

        d = dict(src_dict)
        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = JobsListResponse200JobsItem.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        def _parse_next_before(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_before = _parse_next_before(d.pop("next_before"))

        jobs_list_response_200 = cls(
            jobs=jobs,
            next_before=next_before,
        )

        return jobs_list_response_200
