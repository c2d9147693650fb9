from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminCreateRepoResponse200")


@_attrs_define
class AdminCreateRepoResponse200:
    """
    Attributes:
        repo_id (str):
    """

    repo_id: str

    def to_dict(self) -> dict[str, Any]:
        repo_id = self.repo_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "repo_id": repo_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        repo_id = d.pop("repo_id")

        admin_create_repo_response_200 = cls(
            repo_id=repo_id,
        )

        return admin_create_repo_response_200
