from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminReplayJobsResponse202")


@_attrs_define
class AdminReplayJobsResponse202:
    """
    Attributes:
        replayed (int):
        job_ids (list[str]):
        more (bool):
    """

    replayed: int
    job_ids: list[str]
    more: bool

    def to_dict(self) -> dict[str, Any]:
        replayed = self.replayed

        job_ids = self.job_ids

        more = self.more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "replayed": replayed,
                "job_ids": job_ids,
                "more": more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        replayed = d.pop("replayed")

        job_ids = cast(list[str], d.pop("job_ids"))

        more = d.pop("more")

        admin_replay_jobs_response_202 = cls(
            replayed=replayed,
            job_ids=job_ids,
            more=more,
        )

        return admin_replay_jobs_response_202
