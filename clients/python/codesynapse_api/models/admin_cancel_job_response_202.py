from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.admin_cancel_job_response_202_job import AdminCancelJobResponse202Job


T = TypeVar("T", bound="AdminCancelJobResponse202")


@_attrs_define
class AdminCancelJobResponse202:
    """
    Attributes:
        job (AdminCancelJobResponse202Job):
        canceled (bool):
    """

    job: AdminCancelJobResponse202Job
    canceled: bool

    def to_dict(self) -> dict[str, Any]:
        job = self.job.to_dict()

        canceled = self.canceled

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
                "canceled": canceled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_cancel_job_response_202_job import (
            AdminCancelJobResponse202Job,
        )

        d = dict(src_dict)
        job = AdminCancelJobResponse202Job.from_dict(d.pop("job"))

        canceled = d.pop("canceled")

        admin_cancel_job_response_202 = cls(
            job=job,
            canceled=canceled,
        )

        return admin_cancel_job_response_202
