inifile::create_ini_settings({ 'main' => { 'a' => 'b' } })
