from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_webhook_deliveries_body_status import (
    AdminWebhookDeliveriesBodyStatus,
    check_admin_webhook_deliveries_body_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdminWebhookDeliveriesBody")


@_attrs_define
class AdminWebhookDeliveriesBody:
    """
    Attributes:
        org (str): The organisation's id (org_…).
        status (AdminWebhookDeliveriesBodyStatus | Unset): Only deliveries in this status.
        limit (int | Unset): At most this many (1-500, default 50).
    """

    org: str
    status: AdminWebhookDeliveriesBodyStatus | Unset = UNSET
    limit: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        org = self.org

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status

        limit = self.limit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "org": org,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status
        if limit is not UNSET:
            field_dict["limit"] = limit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        org = d.pop("org")

        _status = d.pop("status", UNSET)
        status: AdminWebhookDeliveriesBodyStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = check_admin_webhook_deliveries_body_status(_status)

        limit = d.pop("limit", UNSET)

        admin_webhook_deliveries_body = cls(
            org=org,
            status=status,
            limit=limit,
        )

        return admin_webhook_deliveries_body
