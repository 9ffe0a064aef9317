systemd::timer { 'backup.timer':
  timer_content   => "[Timer]\nOnCalendar=daily\n",
  service_content => "[Service]\nType=oneshot\nExecStart=/usr/local/bin/backup\n",
  active          => true,
  enable          => true,
}

systemd::tmpfile { 'app.conf':
  content => "d /run/app 0755 app app -\n",
}

systemd::modules_load { 'br_netfilter.conf':
  content => "br_netfilter\n",
}
