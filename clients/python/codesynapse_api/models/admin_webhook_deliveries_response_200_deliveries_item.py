from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from typing_extensions import Self

from ..models.admin_webhook_deliveries_response_200_deliveries_item_status import (
    AdminWebhookDeliveriesResponse200DeliveriesItemStatus,
    check_admin_webhook_deliveries_response_200_deliveries_item_status,
)

T = TypeVar("T", bound="AdminWebhookDeliveriesResponse200DeliveriesItem")


@_attrs_define
class AdminWebhookDeliveriesResponse200DeliveriesItem:
    """
    Attributes:
        id (str):
        job_id (str):
        event (str):
        status (AdminWebhookDeliveriesResponse200DeliveriesItemStatus):
        attempts (int):
        last_status (int | None):
        last_error (None | str):
        next_attempt_at (str):
        delivered_at (None | str):
        created_at (str):
    """

    id: str
    job_id: str
    event: str
    status: AdminWebhookDeliveriesResponse200DeliveriesItemStatus
    attempts: int
    last_status: int | None
    last_error: None | str
    next_attempt_at: str
    delivered_at: None | str
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        job_id = self.job_id

        event = self.event

        status: str = self.status

        attempts = self.attempts

        last_status: int | None
        last_status = self.last_status

        last_error: None | str
        last_error = self.last_error

        next_attempt_at = self.next_attempt_at

        delivered_at: None | str
        delivered_at = self.delivered_at

        created_at = self.created_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "job_id": job_id,
                "event": event,
                "status": status,
                "attempts": attempts,
                "last_status": last_status,
                "last_error": last_error,
                "next_attempt_at": next_attempt_at,
                "delivered_at": delivered_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        job_id = d.pop("job_id")

        event = d.pop("event")

        status = check_admin_webhook_deliveries_response_200_deliveries_item_status(
            d.pop("status")
        )

        attempts = d.pop("attempts")

        def _parse_last_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status = _parse_last_status(d.pop("last_status"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        next_attempt_at = d.pop("next_attempt_at")

        def _parse_delivered_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at"))

        created_at = d.pop("created_at")

        admin_webhook_deliveries_response_200_deliveries_item = cls(
            id=id,
            job_id=job_id,
            event=event,
            status=status,
            attempts=attempts,
            last_status=last_status,
            last_error=last_error,
            next_attempt_at=next_attempt_at,
            delivered_at=delivered_at,
            created_at=created_at,
        )

        return admin_webhook_deliveries_response_200_deliveries_item
