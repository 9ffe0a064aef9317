$s = [$settings::ca_server, $settings::ca_port, $settings::storeconfigs, $settings::runinterval,
  $settings::server_list, $settings::supported_checksum_types, $settings::maxwaitforcert,
  $settings::ca_fingerprint, $settings::environment, $settings::node_terminus, $settings::strict,
  $settings::http_extra_headers, $settings::keylength]
notify { 'values':
  message => String($s),
}
notify { 'types':
  message => String($s.map |$v| { type($v, generalized) }),
}
notify { 'all_local':
  message => String(type($settings::all_local, generalized)),
}
notify { 'count':
  message => String($settings::all_local.length >= 200),
}
notify { 'same':
  message => String($settings::all_local['ca_port'] == $settings::ca_port),
}
