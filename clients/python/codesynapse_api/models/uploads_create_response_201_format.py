from typing import Literal

UploadsCreateResponse201Format = Literal["tar", "tar.gz", "zip"]

UPLOADS_CREATE_RESPONSE_201_FORMAT_VALUES: set[UploadsCreateResponse201Format] = {
    "tar",
    "tar.gz",
    "zip",
}


def check_uploads_create_response_201_format(
    value: str,
) -> UploadsCreateResponse201Format:
    if value in UPLOADS_CREATE_RESPONSE_201_FORMAT_VALUES:
        return value
    raise TypeError(
        f"Unexpected value {value!r}. Expected one of {UPLOADS_CREATE_RESPONSE_201_FORMAT_VALUES!r}"
    )
