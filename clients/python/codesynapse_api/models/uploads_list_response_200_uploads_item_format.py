from typing import Literal

UploadsListResponse200UploadsItemFormat = Literal["tar", "tar.gz", "zip"]

UPLOADS_LIST_RESPONSE_200_UPLOADS_ITEM_FORMAT_VALUES: set[
    UploadsListResponse200UploadsItemFormat
] = {
    "tar",
    "tar.gz",
    "zip",
}


def check_uploads_list_response_200_uploads_item_format(
    value: str,
) -> UploadsListResponse200UploadsItemFormat:
    if value in UPLOADS_LIST_RESPONSE_200_UPLOADS_ITEM_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOADS_LIST_RESPONSE_200_UPLOADS_ITEM_FORMAT_VALUES!r}"
    )
