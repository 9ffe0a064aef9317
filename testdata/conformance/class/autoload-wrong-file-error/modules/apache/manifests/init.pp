class apache {}
