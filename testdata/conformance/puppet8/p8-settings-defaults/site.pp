$names = ['strict', 'strict_variables', 'include_legacy_facts', 'preprocess_deferred',
  'exclude_unchanged_resources', 'reports', 'number_of_facts_soft_limit',
  'crl_refresh_interval', 'ca_refresh_interval', 'hostcert_renewal_interval',
  'allow_pson_serialization', 'report_configured_environmentpath',
  'skip_logging_catalog_request_destination', 'rich_data', 'digest_algorithm']
$names.each |$n| {
  $v = getvar("settings::${n}")
  notify { "setting ${n}": message => { 'value' => $v, 'type' => String(type($v, generalized)) } }
}
notify { "serverversion=${serverversion}": }
