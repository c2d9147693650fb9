from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.admin_list_jobs_response_200_failure_groups_item import (
        AdminListJobsResponse200FailureGroupsItem,
    )
    from ..models.admin_list_jobs_response_200_jobs_item import (
        AdminListJobsResponse200JobsItem,
    )


T = TypeVar("T", bound="AdminListJobsResponse200")


@_attrs_define
class AdminListJobsResponse200:
    """
    Attributes:
        generated_at (str):
        jobs (list[AdminListJobsResponse200JobsItem]):
        failure_groups (list[AdminListJobsResponse200FailureGroupsItem]):
    """

    generated_at: str
    jobs: list[AdminListJobsResponse200JobsItem]
    failure_groups: list[AdminListJobsResponse200FailureGroupsItem]

    def to_dict(self) -> dict[str, Any]:
        generated_at = self.generated_at

        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        failure_groups = []
        for failure_groups_item_data in self.failure_groups:
            failure_groups_item = failure_groups_item_data.to_dict()
            failure_groups.append(failure_groups_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "generated_at": generated_at,
                "jobs": jobs,
                "failure_groups": failure_groups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_list_jobs_response_200_failure_groups_item import (
            AdminListJobsResponse200FailureGroupsItem,
        )
        from ..models.admin_list_jobs_response_200_jobs_item import (
            AdminListJobsResponse200JobsItem,
        )

        d = dict(src_dict)
        generated_at = d.pop("generated_at")

        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = AdminListJobsResponse200JobsItem.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        failure_groups = []
        _failure_groups = d.pop("failure_groups")
        for failure_groups_item_data in _failure_groups:
            failure_groups_item = AdminListJobsResponse200FailureGroupsItem.from_dict(
                failure_groups_item_data
            )

            failure_groups.append(failure_groups_item)

        admin_list_jobs_response_200 = cls(
            generated_at=generated_at,
            jobs=jobs,
            failure_groups=failure_groups,
        )

        return admin_list_jobs_response_200
