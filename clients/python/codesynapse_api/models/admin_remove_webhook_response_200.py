from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

T = TypeVar("T", bound="AdminRemoveWebhookResponse200")


@_attrs_define
class AdminRemoveWebhookResponse200:
    """
    Attributes:
        org_id (str):
        removed (bool):
    """

    org_id: str
    removed: bool

    def to_dict(self) -> dict[str, Any]:
        org_id = self.org_id

        removed = self.removed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org_id": org_id,
                "removed": removed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org_id = d.pop("org_id")

        removed = d.pop("removed")

        admin_remove_webhook_response_200 = cls(
            org_id=org_id,
            removed=removed,
        )

        return admin_remove_webhook_response_200
