"""Phones at the table: invitations by QR code, the phones of a league."""
