from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.admin_retry_job_response_202_job import AdminRetryJobResponse202Job


T = TypeVar("T", bound="AdminRetryJobResponse202")


@_attrs_define
class AdminRetryJobResponse202:
    """
    Attributes:
        job (AdminRetryJobResponse202Job):
    """

    job: AdminRetryJobResponse202Job

    def to_dict(self) -> dict[str, Any]:
        job = self.job.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "job": job,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_retry_job_response_202_job import (
            AdminRetryJobResponse202Job,
        )

        d = dict(src_dict)
        job = AdminRetryJobResponse202Job.from_dict(d.pop("job"))

        admin_retry_job_response_202 = cls(
            job=job,
        )

        return admin_retry_job_response_202
