from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.inline_count import InlineCount
from ...models.job import Job
from ...models.job_collection import JobCollection
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    filter_: str | Unset = UNSET,
    top: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    select: str | Unset = UNSET,
    inlinecount: InlineCount | Unset = UNSET,
    orderby: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["$filter"] = filter_

    params["$top"] = top

    params["$skip"] = skip

    params["$select"] = select

    json_inlinecount: str | Unset = UNSET
    if not isinstance(inlinecount, Unset):
        json_inlinecount = inlinecount.value

    params["$inlinecount"] = json_inlinecount

    params["$orderby"] = orderby

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v3/jobs/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | JobCollection | list[Job] | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> JobCollection | list[Job]:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                response_200_type_0 = []
                _response_200_type_0 = data
                for componentsschemas_job_array_item_data in _response_200_type_0:
                    componentsschemas_job_array_item = Job.from_dict(componentsschemas_job_array_item_data)

                    response_200_type_0.append(componentsschemas_job_array_item)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = JobCollection.from_dict(data)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | JobCollection | list[Job]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    top: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    select: str | Unset = UNSET,
    inlinecount: InlineCount | Unset = UNSET,
    orderby: str | Unset = UNSET,
) -> Response[Error | JobCollection | list[Job]]:
    """List jobs (OData query options).

    Args:
        filter_ (str | Unset):
        top (int | Unset):
        skip (int | Unset):
        select (str | Unset):
        inlinecount (InlineCount | Unset):
        orderby (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobCollection | list[Job]]
    """

    kwargs = _get_kwargs(
        filter_=filter_,
        top=top,
        skip=skip,
        select=select,
        inlinecount=inlinecount,
        orderby=orderby,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    top: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    select: str | Unset = UNSET,
    inlinecount: InlineCount | Unset = UNSET,
    orderby: str | Unset = UNSET,
) -> Error | JobCollection | list[Job] | None:
    """List jobs (OData query options).

    Args:
        filter_ (str | Unset):
        top (int | Unset):
        skip (int | Unset):
        select (str | Unset):
        inlinecount (InlineCount | Unset):
        orderby (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobCollection | list[Job]
    """

    return sync_detailed(
        client=client,
        filter_=filter_,
        top=top,
        skip=skip,
        select=select,
        inlinecount=inlinecount,
        orderby=orderby,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    top: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    select: str | Unset = UNSET,
    inlinecount: InlineCount | Unset = UNSET,
    orderby: str | Unset = UNSET,
) -> Response[Error | JobCollection | list[Job]]:
    """List jobs (OData query options).

    Args:
        filter_ (str | Unset):
        top (int | Unset):
        skip (int | Unset):
        select (str | Unset):
        inlinecount (InlineCount | Unset):
        orderby (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | JobCollection | list[Job]]
    """

    kwargs = _get_kwargs(
        filter_=filter_,
        top=top,
        skip=skip,
        select=select,
        inlinecount=inlinecount,
        orderby=orderby,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    filter_: str | Unset = UNSET,
    top: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    select: str | Unset = UNSET,
    inlinecount: InlineCount | Unset = UNSET,
    orderby: str | Unset = UNSET,
) -> Error | JobCollection | list[Job] | None:
    """List jobs (OData query options).

    Args:
        filter_ (str | Unset):
        top (int | Unset):
        skip (int | Unset):
        select (str | Unset):
        inlinecount (InlineCount | Unset):
        orderby (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | JobCollection | list[Job]
    """

    return (
        await asyncio_detailed(
            client=client,
            filter_=filter_,
            top=top,
            skip=skip,
            select=select,
            inlinecount=inlinecount,
            orderby=orderby,
        )
    ).parsed
