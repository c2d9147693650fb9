from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobsSubmitFixBody")


@_attrs_define
class JobsSubmitFixBody:
    """
    Attributes:
        problem (str): What is wrong, in plain words.
        path (str | Unset): The snapshot directory (default: the repository's latest local ingest).
        files (list[str] | Unset): Files to read, relative to the snapshot (default: chosen from repository memory).
    """

    problem: str
    path: str | Unset = UNSET
    files: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        problem = self.problem

        path = self.path

        files: list[str] | Unset = UNSET
        if not isinstance(self.files, Unset):
            files = self.files

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "problem": problem,
            }
        )
        if path is not UNSET:
            field_dict["path"] = path
        if files is not UNSET:
            field_dict["files"] = files

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        problem = d.pop("problem")

        path = d.pop("path", UNSET)

        files = cast(list[str], d.pop("files", UNSET))

        jobs_submit_fix_body = cls(
            problem=problem,
            path=path,
            files=files,
        )

        return jobs_submit_fix_body
