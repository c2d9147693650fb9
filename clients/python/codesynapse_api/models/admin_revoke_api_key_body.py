from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminRevokeApiKeyBody")


@_attrs_define
class AdminRevokeApiKeyBody:
    """
    Attributes:
        key_prefix (str): The key's prefix, as create-api-key answered it.
    """

    key_prefix: str

    def to_dict(self) -> dict[str, Any]:
        key_prefix = self.key_prefix

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key_prefix": key_prefix,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        key_prefix = d.pop("key_prefix")

        admin_revoke_api_key_body = cls(
            key_prefix=key_prefix,
        )

        return admin_revoke_api_key_body
