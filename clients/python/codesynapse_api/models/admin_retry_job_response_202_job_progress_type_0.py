from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminRetryJobResponse202JobProgressType0")


@_attrs_define
class AdminRetryJobResponse202JobProgressType0:
    """
    Attributes:
        done (float):
        total (float):
    """

    done: float
    total: float

    def to_dict(self) -> dict[str, Any]:
        done = self.done

        total = self.total

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "done": done,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        done = d.pop("done")

        total = d.pop("total")

        admin_retry_job_response_202_job_progress_type_0 = cls(
            done=done,
            total=total,
        )

        return admin_retry_job_response_202_job_progress_type_0
