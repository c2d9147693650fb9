from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminCreateRepoBody")


@_attrs_define
class AdminCreateRepoBody:
    """
    Attributes:
        org (str): The organisation's id (org_…).
        name (str): The repository's name: 1-100 letters, digits, '.', '_' or '-'.
    """

    org: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        name = d.pop("name")

        admin_create_repo_body = cls(
            org=org,
            name=name,
        )

        return admin_create_repo_body
