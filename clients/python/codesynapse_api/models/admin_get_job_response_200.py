from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.admin_get_job_response_200_attempts_item import (
        AdminGetJobResponse200AttemptsItem,
    )
    from ..models.admin_get_job_response_200_follow_ups_item import (
        AdminGetJobResponse200FollowUpsItem,
    )
    from ..models.admin_get_job_response_200_job import AdminGetJobResponse200Job


T = TypeVar("T", bound="AdminGetJobResponse200")


@_attrs_define
class AdminGetJobResponse200:
    """
    Attributes:
        job (AdminGetJobResponse200Job):
        attempts (list[AdminGetJobResponse200AttemptsItem]):
        follow_ups (list[AdminGetJobResponse200FollowUpsItem]):
    """

    job: AdminGetJobResponse200Job
    attempts: list[AdminGetJobResponse200AttemptsItem]
    follow_ups: list[AdminGetJobResponse200FollowUpsItem]

    def to_dict(self) -> dict[str, Any]:
        job = self.job.to_dict()

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        follow_ups = []
        for follow_ups_item_data in self.follow_ups:
            follow_ups_item = follow_ups_item_data.to_dict()
            follow_ups.append(follow_ups_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "attempts": attempts,
                "follow_ups": follow_ups,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_get_job_response_200_attempts_item import (
            AdminGetJobResponse200AttemptsItem,
        )
        from ..models.admin_get_job_response_200_follow_ups_item import (
            AdminGetJobResponse200FollowUpsItem,
        )
        from ..models.admin_get_job_response_200_job import AdminGetJobResponse200Job

        d = dict(src_dict)
        job = AdminGetJobResponse200Job.from_dict(d.pop("job"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = AdminGetJobResponse200AttemptsItem.from_dict(
                attempts_item_data
            )

            attempts.append(attempts_item)

        follow_ups = []
        _follow_ups = d.pop("follow_ups")
        for follow_ups_item_data in _follow_ups:
            follow_ups_item = AdminGetJobResponse200FollowUpsItem.from_dict(
                follow_ups_item_data
            )

            follow_ups.append(follow_ups_item)

        admin_get_job_response_200 = cls(
            job=job,
            attempts=attempts,
            follow_ups=follow_ups,
        )

        return admin_get_job_response_200
