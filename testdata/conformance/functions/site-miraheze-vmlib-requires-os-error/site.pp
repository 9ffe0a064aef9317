requires_os('debian < bullseye')
