from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from typing_extensions import Self

if TYPE_CHECKING:
    from ..models.admin_webhook_deliveries_response_200_deliveries_item import (
        AdminWebhookDeliveriesResponse200DeliveriesItem,
    )


T = TypeVar("T", bound="AdminWebhookDeliveriesResponse200")


@_attrs_define
class AdminWebhookDeliveriesResponse200:
    """
    Attributes:
        deliveries (list[AdminWebhookDeliveriesResponse200DeliveriesItem]):
    """

    deliveries: list[AdminWebhookDeliveriesResponse200DeliveriesItem]

    def to_dict(self) -> dict[str, Any]:
        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "deliveries": deliveries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_webhook_deliveries_response_200_deliveries_item import (
            AdminWebhookDeliveriesResponse200DeliveriesItem,
        )

        d = dict(src_dict)
        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = AdminWebhookDeliveriesResponse200DeliveriesItem.from_dict(
                deliveries_item_data
            )

            deliveries.append(deliveries_item)

        admin_webhook_deliveries_response_200 = cls(
            deliveries=deliveries,
        )

        return admin_webhook_deliveries_response_200
