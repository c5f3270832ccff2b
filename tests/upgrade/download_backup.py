"""Download a backup of a data folder through the backup page of whichever poker-director is
first on the import path (see the folder's ``NOTE.md``)::

    python tests/upgrade/download_backup.py FOLDER OUT

It logs in with the password ``make_data_folder.py`` set and saves what ``/backup/download``
sends as ``OUT``: the backup file a host of that version kept.
"""

from __future__ import annotations

import sys
from pathlib import Path

from make_data_folder import PASSWORD


def main(folder: Path, out: Path) -> None:
    import director
    from director import create_app

    print(f"poker-director from {Path(director.__file__).parent}")
    client = create_app({"TESTING": True}, instance_path=folder).test_client()
    token = client.get("/api/session").get_json()["csrf_token"]
    login = client.post("/api/login", json={"password": PASSWORD}, headers={"X-CSRFToken": token})
    assert login.status_code == 200, login.get_data(as_text=True)
    response = client.get("/backup/download")
    assert response.status_code == 200 and response.headers["Content-Disposition"].startswith("attachment")
    out.write_bytes(response.get_data())
    response.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
