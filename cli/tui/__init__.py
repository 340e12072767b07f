"""`touchline admin`: the staff console (Textual). It reaches the server only through the admin API
(cli/admin_client.py), in workers; see app.py for the screens."""
