from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminCreateApiKeyResponse200")


@_attrs_define
class AdminCreateApiKeyResponse200:
    """
    Attributes:
        api_key (str):
        key_id (str):
        prefix (str):
    """

    api_key: str
    key_id: str
    prefix: str

    def to_dict(self) -> dict[str, Any]:
        api_key = self.api_key

        key_id = self.key_id

        prefix = self.prefix

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "api_key": api_key,
                "key_id": key_id,
                "prefix": prefix,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        api_key = d.pop("api_key")

        key_id = d.pop("key_id")

        prefix = d.pop("prefix")

        admin_create_api_key_response_200 = cls(
            api_key=api_key,
            key_id=key_id,
            prefix=prefix,
        )

        return admin_create_api_key_response_200
