"""API shapes of accounts: profile, device, sign-in results (spec §3, §7)."""

from ...models import Device, User
from ...services.sessions import SignInResult
from ..http.envelope import iso


def profile(user: User) -> dict:
    return {
        "userId": user.id,
        "added": iso(user.created),
        "email": user.email,
        "displayName": user.display_name,
        "city": user.city,
        "gender": user.gender,
        "dateOfBirth": user.date_of_birth.isoformat() if user.date_of_birth else None,
        "phone": user.phone,
        "countryName": user.country_name,
        "postalCode": user.postal_code,
        "globalTags": bool(user.global_tags),
        "clubList": list(user.club_list or []),
        "options": dict(user.options or {}),
        "identity": user.identity_id,
        "identityItem": user.identity_item_id,
        "role": user.role,
    }


def device(d: Device) -> dict:
    return {
        "_id": d.id,
        "added": iso(d.created),
        "updated": iso(d.updated),
        "deviceId": d.device_id,
        "deviceName": d.device_name,
        "osName": d.os_name,
        "osVersion": d.os_version,
    }


def login_response(result: SignInResult) -> dict:
    """The sign-in envelope: `content{profile, tokenData, devices, device_error}` and `auth_data`."""
    stopped = result.device_error is not None
    return {
        "content": {
            "profile": None if stopped else profile(result.user),
            "tokenData": None if stopped else result.token_data,
            "devices": [device(d) for d in result.devices],
            "device_error": result.device_error,
        },
        "auth_data": {"isRegister": result.is_register, "provider": result.provider},
        "error": False,
        "message": "",
    }
