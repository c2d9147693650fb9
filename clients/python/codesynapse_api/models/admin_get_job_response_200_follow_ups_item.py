from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_get_job_response_200_follow_ups_item_status import (
    AdminGetJobResponse200FollowUpsItemStatus,
    check_admin_get_job_response_200_follow_ups_item_status,
)

T = TypeVar("T", bound="AdminGetJobResponse200FollowUpsItem")


@_attrs_define
class AdminGetJobResponse200FollowUpsItem:
    """
    Attributes:
        job_id (str): The follow-up job's id: read it like any job of this thread.
        kind (str):
        status (AdminGetJobResponse200FollowUpsItemStatus):
    """

    job_id: str
    kind: str
    status: AdminGetJobResponse200FollowUpsItemStatus

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        kind = self.kind

        status: str = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job_id": job_id,
                "kind": kind,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        job_id = d.pop("job_id")

        kind = d.pop("kind")

        status = check_admin_get_job_response_200_follow_ups_item_status(
            d.pop("status")
        )

        admin_get_job_response_200_follow_ups_item = cls(
            job_id=job_id,
            kind=kind,
            status=status,
        )

        return admin_get_job_response_200_follow_ups_item
