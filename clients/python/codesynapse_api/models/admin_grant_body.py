from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_grant_body_level import (
    AdminGrantBodyLevel,
    check_admin_grant_body_level,
)

T = TypeVar("T", bound="AdminGrantBody")


@_attrs_define
class AdminGrantBody:
    """
    Attributes:
        repo (str): The repository's id (repo_…).
        user (str): The user's id (usr_…).
        level (AdminGrantBodyLevel): read, write or admin.
    """

    repo: str
    user: str
    level: AdminGrantBodyLevel

    def to_dict(self) -> dict[str, Any]:
        repo = self.repo

        user = self.user

        level: str = self.level

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "repo": repo,
                "user": user,
                "level": level,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        repo = d.pop("repo")

        user = d.pop("user")

        level = check_admin_grant_body_level(d.pop("level"))

        admin_grant_body = cls(
            repo=repo,
            user=user,
            level=level,
        )

        return admin_grant_body
