define d() {}
create_resources('d', {443 => {}})
create_resources('notify', {5 => {}})
ensure_resource('d', 80)
ensure_resource('d', ['81'])
