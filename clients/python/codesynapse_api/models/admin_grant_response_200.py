from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_grant_response_200_level import (
    AdminGrantResponse200Level,
    check_admin_grant_response_200_level,
)

T = TypeVar("T", bound="AdminGrantResponse200")


@_attrs_define
class AdminGrantResponse200:
    """
    Attributes:
        repo_id (str):
        user_id (str):
        level (AdminGrantResponse200Level):
    """

    repo_id: str
    user_id: str
    level: AdminGrantResponse200Level

    def to_dict(self) -> dict[str, Any]:
        repo_id = self.repo_id

        user_id = self.user_id

        level: str = self.level

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "repo_id": repo_id,
                "user_id": user_id,
                "level": level,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        repo_id = d.pop("repo_id")

        user_id = d.pop("user_id")

        level = check_admin_grant_response_200_level(d.pop("level"))

        admin_grant_response_200 = cls(
            repo_id=repo_id,
            user_id=user_id,
            level=level,
        )

        return admin_grant_response_200
