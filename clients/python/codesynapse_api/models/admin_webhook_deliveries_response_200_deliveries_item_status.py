from typing import Literal

AdminWebhookDeliveriesResponse200DeliveriesItemStatus = Literal[
    "delivered", "failed", "pending", "sending"
]

ADMIN_WEBHOOK_DELIVERIES_RESPONSE_200_DELIVERIES_ITEM_STATUS_VALUES: set[
    AdminWebhookDeliveriesResponse200DeliveriesItemStatus
] = {
    "delivered",
    "failed",
    "pending",
    "sending",
}


def check_admin_webhook_deliveries_response_200_deliveries_item_status(
    value: str,
) -> AdminWebhookDeliveriesResponse200DeliveriesItemStatus:
    if value in ADMIN_WEBHOOK_DELIVERIES_RESPONSE_200_DELIVERIES_ITEM_STATUS_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {ADMIN_WEBHOOK_DELIVERIES_RESPONSE_200_DELIVERIES_ITEM_STATUS_VALUES!r}"
    )
