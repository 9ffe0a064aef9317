systemd::manage_unit { 'myservice.service':
  unit_entry    => {
    'Description' => 'My Customisation',
  },
  service_entry => {
    'CPUWeight' => 2000,
  },
}
