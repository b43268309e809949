-- A sandbox store file as the releases before schema versioning wrote it (schema version 1: no
-- 'schema_version' in meta, apps without consent_items), with the demo data, one login, one memo and one
-- quota. Frozen: tests/test_store_versions.py migrates it. Do not regenerate it with a newer toolkit.
BEGIN TRANSACTION;
CREATE TABLE account_sessions (
    sid TEXT PRIMARY KEY, user_id INTEGER NOT NULL, auth_time INTEGER NOT NULL, expires_at INTEGER NOT NULL,
    stay INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE app_channels (
    channel_public_id TEXT PRIMARY KEY, app_id TEXT NOT NULL REFERENCES apps(app_id), channel_uuid TEXT NOT NULL,
    name TEXT NOT NULL
);
CREATE TABLE app_keys (
    key TEXT PRIMARY KEY, app_id TEXT NOT NULL REFERENCES apps(app_id), kind TEXT NOT NULL
);
INSERT INTO "app_keys" VALUES('086fbb0b24e81f47342b8d58bbe2edc6','100001','native_app');
INSERT INTO "app_keys" VALUES('c0a3bfa4b61e18ffdb7a0e2c604ba443','100001','rest_api');
INSERT INTO "app_keys" VALUES('232b91e820109639242d4ae4dc5c19e0','100001','javascript');
INSERT INTO "app_keys" VALUES('71f7bb116cf39fc88060fb97b4c7655f','100001','admin');
CREATE TABLE app_service_terms (
    app_id TEXT NOT NULL, tag TEXT NOT NULL, required INTEGER NOT NULL, revocable INTEGER NOT NULL,
    PRIMARY KEY (app_id, tag)
);
INSERT INTO "app_service_terms" VALUES('100001','terms_of_service',1,0);
INSERT INTO "app_service_terms" VALUES('100001','privacy_policy',1,0);
INSERT INTO "app_service_terms" VALUES('100001','marketing',0,1);
INSERT INTO "app_service_terms" VALUES('100001','location',0,1);
CREATE TABLE apps (
    app_id TEXT PRIMARY KEY, name TEXT NOT NULL, client_secret TEXT NOT NULL,
    client_secret_required INTEGER NOT NULL DEFAULT 1, auto_link INTEGER NOT NULL DEFAULT 1,
    redirect_uris TEXT NOT NULL, logout_redirect_uris TEXT NOT NULL, web_domains TEXT NOT NULL,
    webhooks TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO "apps" VALUES('100001','Sandbox Demo App','c83dfca8ee56dcc26239a3302d78e4fb',1,1,'["http://localhost:8765/callback", "{sandbox}/sandbox/callback"]','["http://localhost:8765/logout", "{sandbox}/sandbox/logged-out"]','["http://localhost:8765", "{sandbox}"]','{}');
CREATE TABLE auth_codes (
    code TEXT PRIMARY KEY, app_id TEXT NOT NULL, client_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    redirect_uri TEXT NOT NULL, scopes TEXT NOT NULL, nonce TEXT, code_challenge TEXT, auth_time INTEGER NOT NULL,
    expires_at INTEGER NOT NULL, used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE biz_assets (
    user_id INTEGER NOT NULL, grp TEXT NOT NULL, resource_id TEXT NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (user_id, grp, resource_id)
);
INSERT INTO "biz_assets" VALUES(4100000001,'keyword','196472','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000001,'keyword','943836','Keyword ad account 2');
INSERT INTO "biz_assets" VALUES(4100000001,'moment','122713','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000001,'moment','324349','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000001,'moment','749825','Moment ad account 3');
INSERT INTO "biz_assets" VALUES(4100000001,'channel','_OGgoZA','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000002,'keyword','306675','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000002,'moment','259725','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000002,'moment','373795','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000002,'moment','546552','Moment ad account 3');
INSERT INTO "biz_assets" VALUES(4100000002,'channel','_KMOQLa','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000003,'keyword','170629','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000003,'moment','353431','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000003,'channel','_TTRjwd','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000003,'channel','_kkgLYD','Channel 2');
INSERT INTO "biz_assets" VALUES(4100000004,'keyword','809138','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000004,'moment','447106','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000004,'moment','847451','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000004,'moment','878827','Moment ad account 3');
INSERT INTO "biz_assets" VALUES(4100000004,'channel','_kmNWKJ','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000004,'channel','_Ekmfti','Channel 2');
INSERT INTO "biz_assets" VALUES(4100000005,'keyword','320082','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000005,'keyword','810215','Keyword ad account 2');
INSERT INTO "biz_assets" VALUES(4100000005,'moment','559462','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000005,'moment','676906','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000005,'channel','_qnaLgq','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000005,'channel','_XTHtRg','Channel 2');
INSERT INTO "biz_assets" VALUES(4100000006,'keyword','274674','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000006,'keyword','707594','Keyword ad account 2');
INSERT INTO "biz_assets" VALUES(4100000006,'keyword','874538','Keyword ad account 3');
INSERT INTO "biz_assets" VALUES(4100000006,'moment','524416','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000006,'moment','664440','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000006,'channel','_pglAgx','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000007,'keyword','567567','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000007,'moment','560555','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000007,'moment','919068','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000007,'channel','_NmANSb','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000008,'keyword','581788','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000008,'moment','107672','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000008,'moment','137510','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000008,'moment','437733','Moment ad account 3');
INSERT INTO "biz_assets" VALUES(4100000008,'channel','_yhzZuw','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000009,'keyword','711040','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000009,'moment','114200','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000009,'moment','554728','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000009,'channel','_hnEIIp','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000009,'channel','_QkgZHQ','Channel 2');
INSERT INTO "biz_assets" VALUES(4100000010,'keyword','479063','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000010,'keyword','682977','Keyword ad account 2');
INSERT INTO "biz_assets" VALUES(4100000010,'keyword','708871','Keyword ad account 3');
INSERT INTO "biz_assets" VALUES(4100000010,'moment','687652','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000010,'moment','726919','Moment ad account 2');
INSERT INTO "biz_assets" VALUES(4100000010,'moment','740744','Moment ad account 3');
INSERT INTO "biz_assets" VALUES(4100000010,'channel','_MpZWiU','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000011,'keyword','654982','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000011,'moment','616494','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000011,'channel','_lQsVtr','Channel 1');
INSERT INTO "biz_assets" VALUES(4100000011,'channel','_IMfNYw','Channel 2');
INSERT INTO "biz_assets" VALUES(4100000012,'keyword','295614','Keyword ad account 1');
INSERT INTO "biz_assets" VALUES(4100000012,'moment','460264','Moment ad account 1');
INSERT INTO "biz_assets" VALUES(4100000012,'channel','_TheScI','Channel 1');
CREATE TABLE biz_codes (
    code TEXT PRIMARY KEY, app_id TEXT NOT NULL, client_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    redirect_uri TEXT NOT NULL, scopes TEXT NOT NULL, agreements TEXT NOT NULL, expires_at INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE biz_token_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, token_id TEXT NOT NULL, app_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    kind TEXT NOT NULL, at INTEGER NOT NULL
);
CREATE TABLE biz_tokens (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, access_token TEXT UNIQUE NOT NULL, app_id TEXT NOT NULL,
    client_id TEXT NOT NULL, user_id INTEGER NOT NULL, token_user_id TEXT NOT NULL, scopes TEXT NOT NULL,
    agreements TEXT NOT NULL, status TEXT NOT NULL, issued_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
);
CREATE TABLE channel_file_users (
    file_id INTEGER NOT NULL, user_type TEXT NOT NULL, user_key TEXT NOT NULL, field TEXT NOT NULL,
    PRIMARY KEY (file_id, user_type, user_key)
);
CREATE TABLE channel_files (
    file_id INTEGER PRIMARY KEY AUTOINCREMENT, channel_public_id TEXT NOT NULL, file_name TEXT NOT NULL,
    schema TEXT NOT NULL, status TEXT NOT NULL, update_at INTEGER NOT NULL
);
CREATE TABLE channel_relations (
    user_id INTEGER NOT NULL, channel_public_id TEXT NOT NULL, relation TEXT NOT NULL,
    created_at INTEGER, updated_at INTEGER, PRIMARY KEY (user_id, channel_public_id)
);
INSERT INTO "channel_relations" VALUES(4100000001,'_xcLqmC','ADDED',1772982180,1773327780);
INSERT INTO "channel_relations" VALUES(4100000001,'_ZeUTxl','BLOCKED',NULL,1770383220);
INSERT INTO "channel_relations" VALUES(4100000001,'_kQbVnP','ADDED',1792100760,1792100760);
INSERT INTO "channel_relations" VALUES(4100000002,'_ZeUTxl','ADDED',1776690960,1777295760);
INSERT INTO "channel_relations" VALUES(4100000002,'_kQbVnP','ADDED',1790497800,1791102600);
INSERT INTO "channel_relations" VALUES(4100000003,'_xcLqmC','ADDED',1783712040,1784403240);
INSERT INTO "channel_relations" VALUES(4100000003,'_kQbVnP','ADDED',1771249980,1771941180);
INSERT INTO "channel_relations" VALUES(4100000004,'_ZeUTxl','BLOCKED',NULL,1794070140);
INSERT INTO "channel_relations" VALUES(4100000004,'_kQbVnP','ADDED',1782879960,1783398360);
INSERT INTO "channel_relations" VALUES(4100000005,'_xcLqmC','ADDED',1780967520,1781658720);
INSERT INTO "channel_relations" VALUES(4100000005,'_ZeUTxl','BLOCKED',NULL,1776689520);
INSERT INTO "channel_relations" VALUES(4100000005,'_kQbVnP','BLOCKED',NULL,1779423060);
INSERT INTO "channel_relations" VALUES(4100000007,'_xcLqmC','ADDED',1782522540,1782868140);
INSERT INTO "channel_relations" VALUES(4100000007,'_kQbVnP','ADDED',1786297920,1786643520);
INSERT INTO "channel_relations" VALUES(4100000008,'_xcLqmC','BLOCKED',NULL,1793620560);
INSERT INTO "channel_relations" VALUES(4100000008,'_kQbVnP','ADDED',1780209360,1780295760);
INSERT INTO "channel_relations" VALUES(4100000009,'_xcLqmC','ADDED',1784122080,1784899680);
INSERT INTO "channel_relations" VALUES(4100000009,'_kQbVnP','ADDED',1785894300,1786499100);
INSERT INTO "channel_relations" VALUES(4100000010,'_ZeUTxl','ADDED',1780950060,1780950060);
INSERT INTO "channel_relations" VALUES(4100000010,'_kQbVnP','BLOCKED',NULL,1778339880);
INSERT INTO "channel_relations" VALUES(4100000012,'_xcLqmC','ADDED',1777458780,1777977180);
INSERT INTO "channel_relations" VALUES(4100000012,'_kQbVnP','ADDED',1775704980,1775704980);
CREATE TABLE consent_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, user_id INTEGER NOT NULL, type TEXT NOT NULL,
    scopes TEXT NOT NULL DEFAULT '', detail TEXT NOT NULL DEFAULT '{}', at INTEGER NOT NULL
);
INSERT INTO "consent_events" VALUES(1,'100001',4100000001,'linked','','{}',1795165200);
INSERT INTO "consent_events" VALUES(2,'100001',4100000001,'scope_consent','profile talk_message','{}',1795165200);
CREATE TABLE consents (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL, scope TEXT NOT NULL, agreed INTEGER NOT NULL,
    agreed_at INTEGER, PRIMARY KEY (app_id, user_id, scope)
);
INSERT INTO "consents" VALUES('100001',4100000001,'profile',1,1795165200);
INSERT INTO "consents" VALUES('100001',4100000001,'talk_message',1,1795165200);
CREATE TABLE events_settings (app_id TEXT PRIMARY KEY, settings TEXT NOT NULL);
CREATE TABLE identity_settings (app_id TEXT PRIMARY KEY, settings TEXT NOT NULL);
CREATE TABLE links (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL REFERENCES users(id), state TEXT NOT NULL,
    linked_at INTEGER NOT NULL, PRIMARY KEY (app_id, user_id)
);
INSERT INTO "links" VALUES('100001',4100000001,'linked',1795165200);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO "meta" VALUES('clock','{"virtual": 1795165200.0, "real": 1795639063.3361309, "frozen": true}');
INSERT INTO "meta" VALUES('seed','7');
INSERT INTO "meta" VALUES('seeded_areas','["apps", "business", "control", "events", "identity", "local", "navi", "social", "tiles", "utility"]');
INSERT INTO "meta" VALUES('events.identity_seq','2');
CREATE TABLE quota_use (app_id TEXT NOT NULL, api TEXT NOT NULL, day TEXT NOT NULL,
    used INTEGER NOT NULL, PRIMARY KEY (app_id, api, day));
INSERT INTO "quota_use" VALUES('100001','talk_memo_default_send','2026-11-20',1);
CREATE TABLE quotas (app_id TEXT NOT NULL, api TEXT NOT NULL, daily_limit INTEGER NOT NULL,
    PRIMARY KEY (app_id, api));
INSERT INTO "quotas" VALUES('100001','local_search_address',77);
CREATE TABLE shipping_addresses (
    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL, body TEXT NOT NULL, is_default INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
INSERT INTO "shipping_addresses" VALUES(9000001,4100000001,'{"id": 9000001, "name": "집", "is_default": false, "updated_at": 1795000000, "type": "NEW", "base_address": "서울 강남구 테헤란로 152", "detail_address": "101동 1001호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "06236"}',0,1795000000);
INSERT INTO "shipping_addresses" VALUES(9000002,4100000001,'{"id": 9000002, "name": "회사", "is_default": false, "updated_at": 1794737200, "type": "NEW", "base_address": "서울 마포구 월드컵북로 396", "detail_address": "102동 1002호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "03925"}',0,1794737200);
INSERT INTO "shipping_addresses" VALUES(9000003,4100000001,'{"id": 9000003, "name": "부모님 댁", "is_default": false, "updated_at": 1794474400, "type": "NEW", "base_address": "부산 해운대구 센텀중앙로 79", "detail_address": "103동 1003호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "48058"}',0,1794474400);
INSERT INTO "shipping_addresses" VALUES(9000004,4100000001,'{"id": 9000004, "name": "친구", "is_default": true, "updated_at": 1794211600, "type": "NEW", "base_address": "서울 종로구 세종대로 175", "detail_address": "104동 1004호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "03154"}',1,1794211600);
INSERT INTO "shipping_addresses" VALUES(9000005,4100000001,'{"id": 9000005, "name": "별장", "is_default": false, "updated_at": 1793948800, "type": "NEW", "base_address": "대전 유성구 대학로 99", "detail_address": "105동 1005호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "34134"}',0,1793948800);
INSERT INTO "shipping_addresses" VALUES(9000006,4100000001,'{"id": 9000006, "name": "집 5", "is_default": false, "updated_at": 1793686000, "type": "NEW", "base_address": "경기 성남시 분당구 판교역로 166", "detail_address": "106동 1006호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "13529"}',0,1793686000);
INSERT INTO "shipping_addresses" VALUES(9000007,4100000001,'{"id": 9000007, "name": "회사 6", "is_default": false, "updated_at": 1793423200, "type": "OLD", "base_address": "서울 중구 명동2가 1-1", "detail_address": "107동 1007호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zip_code": "100-809"}',0,1793423200);
INSERT INTO "shipping_addresses" VALUES(9000008,4100000001,'{"id": 9000008, "name": "부모님 댁 7", "is_default": false, "updated_at": 1793160400, "type": "OLD", "base_address": "인천 연수구 송도동 24-4", "detail_address": "108동 1008호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zip_code": "406-840"}',0,1793160400);
INSERT INTO "shipping_addresses" VALUES(9000009,4100000001,'{"id": 9000009, "name": "친구 8", "is_default": false, "updated_at": 1792897600, "type": "OLD", "base_address": "광주 북구 용봉동 300", "detail_address": "109동 1009호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zip_code": "500-757"}',0,1792897600);
INSERT INTO "shipping_addresses" VALUES(9000010,4100000001,'{"id": 9000010, "name": "별장 9", "is_default": false, "updated_at": 1792634800, "type": "NEW", "base_address": "제주 제주시 첨단로 242", "detail_address": "110동 1010호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "63309"}',0,1792634800);
INSERT INTO "shipping_addresses" VALUES(9000011,4100000001,'{"id": 9000011, "name": "집 10", "is_default": false, "updated_at": 1792372000, "type": "NEW", "base_address": "대구 중구 동성로 30", "detail_address": "111동 1011호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "41911"}',0,1792372000);
INSERT INTO "shipping_addresses" VALUES(9000012,4100000001,'{"id": 9000012, "name": "회사 11", "is_default": false, "updated_at": 1792109200, "type": "NEW", "base_address": "울산 남구 삼산로 261", "detail_address": "112동 1012호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "zone_number": "44719"}',0,1792109200);
INSERT INTO "shipping_addresses" VALUES(9000013,4100000002,'{"id": 9000013, "name": "집", "is_default": false, "updated_at": 1795000000, "type": "NEW", "base_address": "서울 강남구 테헤란로 152", "detail_address": "101동 1001호", "receiver_name": "이준호", "receiver_phone_number1": "010-1200-0002", "zone_number": "06236"}',0,1795000000);
INSERT INTO "shipping_addresses" VALUES(9000014,4100000002,'{"id": 9000014, "name": "회사", "is_default": false, "updated_at": 1794737200, "type": "NEW", "base_address": "서울 마포구 월드컵북로 396", "detail_address": "102동 1002호", "receiver_name": "이준호", "receiver_phone_number1": "010-1200-0002", "zone_number": "03925"}',0,1794737200);
INSERT INTO "shipping_addresses" VALUES(9000015,4100000002,'{"id": 9000015, "name": "부모님 댁", "is_default": false, "updated_at": 1794474400, "type": "NEW", "base_address": "부산 해운대구 센텀중앙로 79", "detail_address": "103동 1003호", "receiver_name": "이준호", "receiver_phone_number1": "010-1200-0002", "zone_number": "48058"}',0,1794474400);
INSERT INTO "shipping_addresses" VALUES(9000016,4100000003,'{"id": 9000016, "name": "집", "is_default": true, "updated_at": 1795000000, "type": "NEW", "base_address": "서울 강남구 테헤란로 152", "detail_address": "101동 1001호", "receiver_name": "박서연", "receiver_phone_number1": "010-1200-0003", "zone_number": "06236"}',1,1795000000);
CREATE TABLE social_scrapes (info TEXT PRIMARY KEY);
CREATE TABLE status_incidents (
    id INTEGER PRIMARY KEY AUTOINCREMENT, api TEXT NOT NULL, status TEXT NOT NULL,
    start INTEGER NOT NULL, end INTEGER NOT NULL, note TEXT NOT NULL DEFAULT ''
);
INSERT INTO "status_incidents" VALUES(1,'navi_directions','YELLOW',1791594600,1791607200,'slow route computation');
INSERT INTO "status_incidents" VALUES(2,'local_search_keyword','RED',1791957600,1791961920,'search index outage');
INSERT INTO "status_incidents" VALUES(3,'local_search_category','RED',1791957600,1791961920,'search index outage');
INSERT INTO "status_incidents" VALUES(4,'talk_friends_message_send','YELLOW',1792323000,1792330200,'delayed delivery');
INSERT INTO "status_incidents" VALUES(5,'oauth_token','MAINTENANCE',1792688400,1792695600,'planned maintenance');
INSERT INTO "status_incidents" VALUES(6,'oauth_authorize','MAINTENANCE',1792688400,1792695600,'planned maintenance');
INSERT INTO "status_incidents" VALUES(7,'talk_channels','YELLOW',1792897200,1792915200,'elevated error rate');
INSERT INTO "status_incidents" VALUES(8,'search_image','RED',1793089200,1793092080,'image search outage');
INSERT INTO "status_incidents" VALUES(9,'talk_memo_send','YELLOW',1793365200,1793370600,'delayed delivery');
INSERT INTO "status_incidents" VALUES(10,'map_js','YELLOW',1793656800,1793671200,'tile server latency');
INSERT INTO "status_incidents" VALUES(11,'user_me','RED',1793846400,1793848560,'user information unavailable');
INSERT INTO "status_incidents" VALUES(12,'oidc_userinfo','RED',1793846400,1793848560,'user information unavailable');
INSERT INTO "status_incidents" VALUES(13,'talkchannel_update_target_users','MAINTENANCE',1794153600,1794164400,'planned maintenance');
INSERT INTO "status_incidents" VALUES(14,'navi_origins_directions','YELLOW',1794382200,1794391200,'slow route computation');
INSERT INTO "status_incidents" VALUES(15,'talk_friends','YELLOW',1794564000,1794567600,'elevated latency');
INSERT INTO "status_incidents" VALUES(16,'local_search_address','RED',1794715200,1794722400,'address index outage');
INSERT INTO "status_incidents" VALUES(17,'search_blog','YELLOW',1794916800,1794938400,'stale results');
INSERT INTO "status_incidents" VALUES(18,'talk_sharing_upload_images','RED',1794993300,1794997800,'upload failures');
INSERT INTO "status_incidents" VALUES(19,'navi_future_directions','YELLOW',1795154400,1795197600,'traffic model refresh delayed');
INSERT INTO "status_incidents" VALUES(20,'talkchannel_target_user_file','MAINTENANCE',1795161600,1795172400,'planned maintenance');
CREATE TABLE story_comments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, story_id TEXT NOT NULL, user_id INTEGER NOT NULL, text TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
INSERT INTO "story_comments" VALUES(1,'_1.4C94',4100000006,'Congrats 🎉',1793088360);
INSERT INTO "story_comments" VALUES(2,'_1.4C94',4100000004,'Congrats 🎉',1793088960);
INSERT INTO "story_comments" VALUES(3,'_1.4C94',4100000002,'사진 너무 예뻐요',1793089560);
INSERT INTO "story_comments" VALUES(4,'_1.4C95',4100000005,'사진 너무 예뻐요',1793553780);
INSERT INTO "story_comments" VALUES(5,'_1.4C95',4100000012,'Looks great!',1793554380);
INSERT INTO "story_comments" VALUES(6,'_1.4C95',4100000010,'Where is this?',1793554980);
INSERT INTO "story_comments" VALUES(7,'_1.4C96',4100000006,'Looks great!',1794874620);
INSERT INTO "story_comments" VALUES(8,'_2.4C97',4100000012,'부럽다…',1787795640);
INSERT INTO "story_comments" VALUES(9,'_2.4C98',4100000001,'사진 너무 예뻐요',1789188600);
INSERT INTO "story_comments" VALUES(10,'_2.4C99',4100000001,'👍',1790921160);
INSERT INTO "story_comments" VALUES(11,'_2.4C9A',4100000008,'다음엔 같이 가요!',1793389620);
INSERT INTO "story_comments" VALUES(12,'_2.4C9A',4100000004,'👍',1793390220);
INSERT INTO "story_comments" VALUES(13,'_2.4C9A',4100000005,'와 멋지다!',1793390820);
INSERT INTO "story_comments" VALUES(14,'_3.4C9B',4100000008,'와 멋지다!',1789427520);
INSERT INTO "story_comments" VALUES(15,'_5.4C9D',4100000009,'부럽다…',1788890040);
INSERT INTO "story_comments" VALUES(16,'_5.4C9D',4100000002,'👍',1788890640);
INSERT INTO "story_comments" VALUES(17,'_5.4C9D',4100000012,'저도 가보고 싶어요',1788891240);
INSERT INTO "story_comments" VALUES(18,'_5.4C9E',4100000010,'Congrats 🎉',1789074720);
INSERT INTO "story_comments" VALUES(19,'_5.4C9E',4100000008,'부럽다…',1789075320);
INSERT INTO "story_comments" VALUES(20,'_5.4C9E',4100000009,'다음엔 같이 가요!',1789075920);
INSERT INTO "story_comments" VALUES(21,'_5.4C9F',4100000001,'👍',1789707240);
INSERT INTO "story_comments" VALUES(22,'_6.4C9H',4100000001,'와 멋지다!',1788621900);
INSERT INTO "story_comments" VALUES(23,'_6.4C9I',4100000003,'Looks great!',1794517560);
INSERT INTO "story_comments" VALUES(24,'_6.4C9I',4100000001,'ㅋㅋㅋㅋ',1794518160);
INSERT INTO "story_comments" VALUES(25,'_6.4C9I',4100000002,'👍',1794518760);
INSERT INTO "story_comments" VALUES(26,'_7.4C9J',4100000012,'부럽다…',1788390960);
INSERT INTO "story_comments" VALUES(27,'_7.4C9J',4100000010,'Looks great!',1788391560);
INSERT INTO "story_comments" VALUES(28,'_7.4C9K',4100000001,'와 멋지다!',1789594200);
INSERT INTO "story_comments" VALUES(29,'_7.4C9K',4100000010,'저도 가보고 싶어요',1789594800);
INSERT INTO "story_comments" VALUES(30,'_7.4C9M',4100000001,'저도 가보고 싶어요',1792437780);
INSERT INTO "story_comments" VALUES(31,'_7.4C9M',4100000004,'Looks great!',1792438380);
INSERT INTO "story_comments" VALUES(32,'_7.4C9M',4100000012,'👍',1792438980);
INSERT INTO "story_comments" VALUES(33,'_7.4C9N',4100000012,'Looks great!',1792739640);
INSERT INTO "story_comments" VALUES(34,'_7.4C9N',4100000010,'Where is this?',1792740240);
INSERT INTO "story_comments" VALUES(35,'_7.4C9N',4100000004,'사진 너무 예뻐요',1792740840);
INSERT INTO "story_comments" VALUES(36,'_9.4C9O',4100000004,'다음엔 같이 가요!',1791744000);
INSERT INTO "story_comments" VALUES(37,'_9.4C9O',4100000001,'와 멋지다!',1791744600);
INSERT INTO "story_comments" VALUES(38,'_9.4C9O',4100000005,'다음엔 같이 가요!',1791745200);
INSERT INTO "story_comments" VALUES(39,'_9.4C9P',4100000001,'Congrats 🎉',1792572300);
INSERT INTO "story_comments" VALUES(40,'_9.4C9P',4100000004,'Looks great!',1792572900);
INSERT INTO "story_comments" VALUES(41,'_9.4C9Q',4100000005,'와 멋지다!',1793123820);
INSERT INTO "story_comments" VALUES(42,'_9.4C9Q',4100000004,'👍',1793124420);
INSERT INTO "story_comments" VALUES(43,'_A.4C9R',4100000001,'부럽다…',1789614780);
INSERT INTO "story_comments" VALUES(44,'_A.4C9R',4100000012,'Where is this?',1789615380);
INSERT INTO "story_comments" VALUES(45,'_A.4C9R',4100000007,'다음엔 같이 가요!',1789615980);
INSERT INTO "story_comments" VALUES(46,'_B.4C9X',4100000003,'Where is this?',1793256840);
INSERT INTO "story_comments" VALUES(47,'_B.4C9X',4100000001,'Congrats 🎉',1793257440);
INSERT INTO "story_comments" VALUES(48,'_B.4C9X',4100000002,'와 멋지다!',1793258040);
INSERT INTO "story_comments" VALUES(49,'_B.4C9Y',4100000002,'사진 너무 예뻐요',1793927640);
INSERT INTO "story_comments" VALUES(50,'_B.4C9Y',4100000001,'👍',1793928240);
INSERT INTO "story_comments" VALUES(51,'_B.4C9Z',4100000003,'부럽다…',1794156960);
INSERT INTO "story_comments" VALUES(52,'_B.4C9Z',4100000001,'Where is this?',1794157560);
INSERT INTO "story_comments" VALUES(53,'_C.4C9a',4100000003,'다음엔 같이 가요!',1788089400);
INSERT INTO "story_comments" VALUES(54,'_C.4C9a',4100000010,'👍',1788090000);
INSERT INTO "story_comments" VALUES(55,'_C.4C9a',4100000009,'ㅋㅋㅋㅋ',1788090600);
INSERT INTO "story_comments" VALUES(56,'_C.4C9b',4100000009,'Looks great!',1789589820);
INSERT INTO "story_comments" VALUES(57,'_C.4C9b',4100000007,'Looks great!',1789590420);
INSERT INTO "story_comments" VALUES(58,'_C.4C9b',4100000008,'Congrats 🎉',1789591020);
INSERT INTO "story_comments" VALUES(59,'_C.4C9c',4100000010,'저도 가보고 싶어요',1791596340);
INSERT INTO "story_comments" VALUES(60,'_C.4C9d',4100000007,'Looks great!',1793926860);
INSERT INTO "story_comments" VALUES(61,'_C.4C9e',4100000002,'저도 가보고 싶어요',1794505860);
CREATE TABLE story_likes (
    story_id TEXT NOT NULL, user_id INTEGER NOT NULL, emotion TEXT NOT NULL, created_at INTEGER NOT NULL,
    PRIMARY KEY (story_id, user_id)
);
INSERT INTO "story_likes" VALUES('_1.4C93',4100000010,'HAPPY',1792673760);
INSERT INTO "story_likes" VALUES('_1.4C93',4100000003,'CHEER_UP',1792674060);
INSERT INTO "story_likes" VALUES('_1.4C94',4100000008,'LIKE',1793088060);
INSERT INTO "story_likes" VALUES('_1.4C94',4100000003,'HAPPY',1793088360);
INSERT INTO "story_likes" VALUES('_1.4C94',4100000009,'HAPPY',1793088660);
INSERT INTO "story_likes" VALUES('_1.4C95',4100000002,'LIKE',1793553480);
INSERT INTO "story_likes" VALUES('_1.4C95',4100000010,'LIKE',1793553780);
INSERT INTO "story_likes" VALUES('_1.4C96',4100000006,'HAPPY',1794874320);
INSERT INTO "story_likes" VALUES('_1.4C96',4100000003,'CHEER_UP',1794874620);
INSERT INTO "story_likes" VALUES('_1.4C96',4100000002,'LIKE',1794874920);
INSERT INTO "story_likes" VALUES('_1.4C96',4100000004,'COOL',1794875220);
INSERT INTO "story_likes" VALUES('_2.4C97',4100000008,'LIKE',1787795340);
INSERT INTO "story_likes" VALUES('_2.4C97',4100000005,'HAPPY',1787795640);
INSERT INTO "story_likes" VALUES('_2.4C97',4100000012,'LIKE',1787795940);
INSERT INTO "story_likes" VALUES('_2.4C97',4100000001,'LIKE',1787796240);
INSERT INTO "story_likes" VALUES('_2.4C99',4100000005,'LIKE',1790920860);
INSERT INTO "story_likes" VALUES('_2.4C99',4100000006,'SAD',1790921160);
INSERT INTO "story_likes" VALUES('_3.4C9C',4100000004,'LIKE',1794199860);
INSERT INTO "story_likes" VALUES('_5.4C9D',4100000009,'HAPPY',1788889740);
INSERT INTO "story_likes" VALUES('_5.4C9D',4100000003,'SAD',1788890040);
INSERT INTO "story_likes" VALUES('_5.4C9D',4100000008,'COOL',1788890340);
INSERT INTO "story_likes" VALUES('_5.4C9E',4100000009,'CHEER_UP',1789074420);
INSERT INTO "story_likes" VALUES('_5.4C9F',4100000010,'LIKE',1789706940);
INSERT INTO "story_likes" VALUES('_5.4C9F',4100000008,'SAD',1789707240);
INSERT INTO "story_likes" VALUES('_5.4C9G',4100000003,'LIKE',1792979100);
INSERT INTO "story_likes" VALUES('_5.4C9G',4100000012,'LIKE',1792979400);
INSERT INTO "story_likes" VALUES('_5.4C9G',4100000001,'HAPPY',1792979700);
INSERT INTO "story_likes" VALUES('_6.4C9H',4100000003,'LIKE',1788621600);
INSERT INTO "story_likes" VALUES('_6.4C9H',4100000001,'HAPPY',1788621900);
INSERT INTO "story_likes" VALUES('_6.4C9H',4100000012,'LIKE',1788622200);
INSERT INTO "story_likes" VALUES('_6.4C9H',4100000002,'LIKE',1788622500);
INSERT INTO "story_likes" VALUES('_6.4C9I',4100000012,'LIKE',1794517260);
INSERT INTO "story_likes" VALUES('_7.4C9J',4100000010,'LIKE',1788390660);
INSERT INTO "story_likes" VALUES('_7.4C9J',4100000004,'SAD',1788390960);
INSERT INTO "story_likes" VALUES('_7.4C9J',4100000012,'COOL',1788391260);
INSERT INTO "story_likes" VALUES('_7.4C9J',4100000001,'LIKE',1788391560);
INSERT INTO "story_likes" VALUES('_7.4C9K',4100000012,'LIKE',1789593900);
INSERT INTO "story_likes" VALUES('_7.4C9K',4100000001,'LIKE',1789594200);
INSERT INTO "story_likes" VALUES('_7.4C9K',4100000010,'LIKE',1789594500);
INSERT INTO "story_likes" VALUES('_7.4C9K',4100000004,'HAPPY',1789594800);
INSERT INTO "story_likes" VALUES('_7.4C9L',4100000010,'HAPPY',1792069500);
INSERT INTO "story_likes" VALUES('_7.4C9L',4100000012,'COOL',1792069800);
INSERT INTO "story_likes" VALUES('_7.4C9L',4100000004,'LIKE',1792070100);
INSERT INTO "story_likes" VALUES('_7.4C9L',4100000001,'COOL',1792070400);
INSERT INTO "story_likes" VALUES('_7.4C9M',4100000004,'SAD',1792437480);
INSERT INTO "story_likes" VALUES('_7.4C9M',4100000001,'COOL',1792437780);
INSERT INTO "story_likes" VALUES('_7.4C9M',4100000010,'LIKE',1792438080);
INSERT INTO "story_likes" VALUES('_7.4C9N',4100000012,'HAPPY',1792739340);
INSERT INTO "story_likes" VALUES('_7.4C9N',4100000004,'SAD',1792739640);
INSERT INTO "story_likes" VALUES('_9.4C9P',4100000001,'LIKE',1792572000);
INSERT INTO "story_likes" VALUES('_9.4C9P',4100000012,'LIKE',1792572300);
INSERT INTO "story_likes" VALUES('_9.4C9Q',4100000004,'LIKE',1793123520);
INSERT INTO "story_likes" VALUES('_A.4C9S',4100000007,'HAPPY',1790443860);
INSERT INTO "story_likes" VALUES('_A.4C9T',4100000001,'COOL',1792747200);
INSERT INTO "story_likes" VALUES('_A.4C9T',4100000007,'HAPPY',1792747500);
INSERT INTO "story_likes" VALUES('_A.4C9T',4100000005,'LIKE',1792747800);
INSERT INTO "story_likes" VALUES('_B.4C9V',4100000003,'LIKE',1787692500);
INSERT INTO "story_likes" VALUES('_B.4C9W',4100000002,'SAD',1792245780);
INSERT INTO "story_likes" VALUES('_B.4C9W',4100000003,'HAPPY',1792246080);
INSERT INTO "story_likes" VALUES('_B.4C9W',4100000001,'COOL',1792246380);
INSERT INTO "story_likes" VALUES('_B.4C9X',4100000002,'LIKE',1793256540);
INSERT INTO "story_likes" VALUES('_B.4C9X',4100000003,'CHEER_UP',1793256840);
INSERT INTO "story_likes" VALUES('_B.4C9X',4100000001,'COOL',1793257140);
INSERT INTO "story_likes" VALUES('_B.4C9Y',4100000001,'SAD',1793927340);
INSERT INTO "story_likes" VALUES('_B.4C9Y',4100000003,'LIKE',1793927640);
INSERT INTO "story_likes" VALUES('_B.4C9Z',4100000001,'HAPPY',1794156660);
INSERT INTO "story_likes" VALUES('_B.4C9Z',4100000003,'LIKE',1794156960);
INSERT INTO "story_likes" VALUES('_B.4C9Z',4100000002,'HAPPY',1794157260);
INSERT INTO "story_likes" VALUES('_C.4C9a',4100000002,'COOL',1788089100);
INSERT INTO "story_likes" VALUES('_C.4C9a',4100000007,'COOL',1788089400);
INSERT INTO "story_likes" VALUES('_C.4C9b',4100000008,'HAPPY',1789589520);
INSERT INTO "story_likes" VALUES('_C.4C9b',4100000010,'CHEER_UP',1789589820);
INSERT INTO "story_likes" VALUES('_C.4C9b',4100000002,'HAPPY',1789590120);
INSERT INTO "story_likes" VALUES('_C.4C9c',4100000001,'LIKE',1791596040);
INSERT INTO "story_likes" VALUES('_C.4C9c',4100000002,'LIKE',1791596340);
INSERT INTO "story_likes" VALUES('_C.4C9c',4100000008,'HAPPY',1791596640);
INSERT INTO "story_likes" VALUES('_C.4C9d',4100000001,'COOL',1793926560);
INSERT INTO "story_likes" VALUES('_C.4C9d',4100000002,'HAPPY',1793926860);
INSERT INTO "story_likes" VALUES('_C.4C9d',4100000009,'HAPPY',1793927160);
INSERT INTO "story_likes" VALUES('_C.4C9e',4100000006,'HAPPY',1794505560);
INSERT INTO "story_likes" VALUES('_C.4C9e',4100000007,'HAPPY',1794505860);
INSERT INTO "story_likes" VALUES('_C.4C9e',4100000008,'LIKE',1794506160);
CREATE TABLE story_stories (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT UNIQUE, user_id INTEGER NOT NULL, media_type TEXT NOT NULL,
    content TEXT, permission TEXT NOT NULL, enable_share INTEGER NOT NULL DEFAULT 0, exec TEXT NOT NULL DEFAULT '{}',
    images TEXT NOT NULL DEFAULT '[]', link_info TEXT, created_at INTEGER NOT NULL
);
INSERT INTO "story_stories" VALUES(1,'_1.4C93',4100000001,'PHOTO','동생이랑 보드게임 카페 갔다 옴 ㅋㅋ','ONLY_ME',0,'{}','["/dn/607a41579caf49a6/img_0.jpg?width=1080&height=960", "/dn/ffeb41b78e6516f3/img_1.jpg?width=1280&height=1080", "/dn/885b3936cde08666/img_2.jpg?width=960&height=960"]',NULL,1792673460);
INSERT INTO "story_stories" VALUES(2,'_1.4C94',4100000001,'NOTE','Finally finished the 1,000-piece puzzle.','FRIEND',0,'{}','[]',NULL,1793087760);
INSERT INTO "story_stories" VALUES(3,'_1.4C95',4100000001,'PHOTO','Morning run: 5 km in the rain.','PUBLIC',0,'{}','["/dn/a3d9032c50be1dc4/img_0.jpg?width=1280&height=720", "/dn/b46c4c5a01b74892/img_1.jpg?width=1280&height=960", "/dn/1fbedbdd81d3a163/img_2.jpg?width=960&height=720"]',NULL,1793553180);
INSERT INTO "story_stories" VALUES(4,'_1.4C96',4100000001,'NOTE','Finally finished the 1,000-piece puzzle.','ONLY_ME',0,'{}','[]',NULL,1794874020);
INSERT INTO "story_stories" VALUES(5,'_2.4C97',4100000002,'NOTE','주말엔 집에서 영화 세 편 몰아보기.','PUBLIC',0,'{}','[]',NULL,1787795040);
INSERT INTO "story_stories" VALUES(6,'_2.4C98',4100000002,'NOTE','Morning run: 5 km in the rain.','ONLY_ME',0,'{}','[]',NULL,1789188000);
INSERT INTO "story_stories" VALUES(7,'_2.4C99',4100000002,'NOTE','주말엔 집에서 영화 세 편 몰아보기.','ONLY_ME',0,'{}','[]',NULL,1790920560);
INSERT INTO "story_stories" VALUES(8,'_2.4C9A',4100000002,'NOTE','가을 단풍 보러 북한산 다녀왔어요.','ONLY_ME',0,'{}','[]',NULL,1793389020);
INSERT INTO "story_stories" VALUES(9,'_3.4C9B',4100000003,'NOTE','새로 생긴 동네 빵집 소금빵 추천합니다 🥐','ONLY_ME',0,'{}','[]',NULL,1789426920);
INSERT INTO "story_stories" VALUES(10,'_3.4C9C',4100000003,'NOTE','Finally finished the 1,000-piece puzzle.','PUBLIC',0,'{}','[]',NULL,1794199560);
INSERT INTO "story_stories" VALUES(11,'_5.4C9D',4100000005,'NOTE','주말엔 집에서 영화 세 편 몰아보기.','PUBLIC',0,'{}','[]',NULL,1788889440);
INSERT INTO "story_stories" VALUES(12,'_5.4C9E',4100000005,'NOTE','주말엔 집에서 영화 세 편 몰아보기.','PUBLIC',0,'{}','[]',NULL,1789074120);
INSERT INTO "story_stories" VALUES(13,'_5.4C9F',4100000005,'NOTE','Morning run: 5 km in the rain.','ONLY_ME',0,'{}','[]',NULL,1789706640);
INSERT INTO "story_stories" VALUES(14,'_5.4C9G',4100000005,'PHOTO','오늘 한강에서 자전거 탔어요. 바람이 정말 좋았어요!','PUBLIC',0,'{}','["/dn/59e5ed338e61a726/img_0.jpg?width=960&height=960", "/dn/47d079b5b222bb30/img_1.jpg?width=1080&height=1080"]',NULL,1792978800);
INSERT INTO "story_stories" VALUES(15,'_6.4C9H',4100000006,'NOTE','새로 생긴 동네 빵집 소금빵 추천합니다 🥐','PUBLIC',0,'{}','[]',NULL,1788621300);
INSERT INTO "story_stories" VALUES(16,'_6.4C9I',4100000006,'PHOTO','Finally finished the 1,000-piece puzzle.','PUBLIC',0,'{}','["/dn/1e99beb967f7d3b2/img_0.jpg?width=1080&height=960", "/dn/ad1c11ea55e1d9b7/img_1.jpg?width=1080&height=720", "/dn/66d0ca5e2f4e75f8/img_2.jpg?width=1080&height=1080"]',NULL,1794516960);
INSERT INTO "story_stories" VALUES(17,'_7.4C9J',4100000007,'PHOTO','오늘 한강에서 자전거 탔어요. 바람이 정말 좋았어요!','ONLY_ME',0,'{}','["/dn/9240441da4ce6323/img_0.jpg?width=1080&height=1080"]',NULL,1788390360);
INSERT INTO "story_stories" VALUES(18,'_7.4C9K',4100000007,'NOTE','Morning run: 5 km in the rain.','FRIEND',0,'{}','[]',NULL,1789593600);
INSERT INTO "story_stories" VALUES(19,'_7.4C9L',4100000007,'NOTE','오늘 한강에서 자전거 탔어요. 바람이 정말 좋았어요!','FRIEND',0,'{}','[]',NULL,1792069200);
INSERT INTO "story_stories" VALUES(20,'_7.4C9M',4100000007,'NOTE','Finally finished the 1,000-piece puzzle.','PUBLIC',0,'{}','[]',NULL,1792437180);
INSERT INTO "story_stories" VALUES(21,'_7.4C9N',4100000007,'NOTE','Trying a new ramen recipe tonight.','PUBLIC',0,'{}','[]',NULL,1792739040);
INSERT INTO "story_stories" VALUES(22,'_9.4C9O',4100000009,'NOTE','주말엔 집에서 영화 세 편 몰아보기.','PUBLIC',0,'{}','[]',NULL,1791743400);
INSERT INTO "story_stories" VALUES(23,'_9.4C9P',4100000009,'NOTE','가을 단풍 보러 북한산 다녀왔어요.','ONLY_ME',0,'{}','[]',NULL,1792571700);
INSERT INTO "story_stories" VALUES(24,'_9.4C9Q',4100000009,'PHOTO','가을 단풍 보러 북한산 다녀왔어요.','FRIEND',0,'{}','["/dn/9b85057cd981695e/img_0.jpg?width=960&height=960"]',NULL,1793123220);
INSERT INTO "story_stories" VALUES(25,'_A.4C9R',4100000010,'NOTE','가을 단풍 보러 북한산 다녀왔어요.','PUBLIC',0,'{}','[]',NULL,1789614180);
INSERT INTO "story_stories" VALUES(26,'_A.4C9S',4100000010,'PHOTO','오늘 한강에서 자전거 탔어요. 바람이 정말 좋았어요!','FRIEND',0,'{}','["/dn/b4f29fbf1a600081/img_0.jpg?width=960&height=720"]',NULL,1790443560);
INSERT INTO "story_stories" VALUES(27,'_A.4C9T',4100000010,'NOTE','새로 생긴 동네 빵집 소금빵 추천합니다 🥐','PUBLIC',0,'{}','[]',NULL,1792746900);
INSERT INTO "story_stories" VALUES(28,'_A.4C9U',4100000010,'NOTE','Trying a new ramen recipe tonight.','PUBLIC',0,'{}','[]',NULL,1794940200);
INSERT INTO "story_stories" VALUES(29,'_B.4C9V',4100000011,'PHOTO','First snow of the season this morning ❄️','FRIEND',0,'{}','["/dn/3ca13549cb696a41/img_0.jpg?width=960&height=720", "/dn/69e81195b797b321/img_1.jpg?width=960&height=720", "/dn/879993a42058ae6b/img_2.jpg?width=1280&height=960"]',NULL,1787692200);
INSERT INTO "story_stories" VALUES(30,'_B.4C9W',4100000011,'PHOTO','Morning run: 5 km in the rain.','PUBLIC',0,'{}','["/dn/ce2500e44f4e18cb/img_0.jpg?width=1080&height=960", "/dn/5b07ca740a7d830f/img_1.jpg?width=1080&height=720"]',NULL,1792245480);
INSERT INTO "story_stories" VALUES(31,'_B.4C9X',4100000011,'PHOTO','새로 생긴 동네 빵집 소금빵 추천합니다 🥐','ONLY_ME',0,'{}','["/dn/4e5759bdfaafcb38/img_0.jpg?width=1080&height=1080", "/dn/da9da465f27f6cb9/img_1.jpg?width=1080&height=720"]',NULL,1793256240);
INSERT INTO "story_stories" VALUES(32,'_B.4C9Y',4100000011,'NOTE','새로 생긴 동네 빵집 소금빵 추천합니다 🥐','ONLY_ME',0,'{}','[]',NULL,1793927040);
INSERT INTO "story_stories" VALUES(33,'_B.4C9Z',4100000011,'PHOTO','책 한 권 완독! 다음 책 추천 받아요.','PUBLIC',0,'{}','["/dn/5245189469b76402/img_0.jpg?width=960&height=960", "/dn/48c8e9987cfbbd6b/img_1.jpg?width=1080&height=720"]',NULL,1794156360);
INSERT INTO "story_stories" VALUES(34,'_C.4C9a',4100000012,'NOTE','Morning run: 5 km in the rain.','PUBLIC',0,'{}','[]',NULL,1788088800);
INSERT INTO "story_stories" VALUES(35,'_C.4C9b',4100000012,'PHOTO','새로 생긴 동네 빵집 소금빵 추천합니다 🥐','PUBLIC',0,'{}','["/dn/20cfd18cd3362ef0/img_0.jpg?width=960&height=960", "/dn/670baa09ace0c789/img_1.jpg?width=1280&height=1080", "/dn/7ae523daa1aa786d/img_2.jpg?width=1080&height=960"]',NULL,1789589220);
INSERT INTO "story_stories" VALUES(36,'_C.4C9c',4100000012,'PHOTO','책 한 권 완독! 다음 책 추천 받아요.','ONLY_ME',0,'{}','["/dn/a33c0461d761f558/img_0.jpg?width=960&height=720", "/dn/9717262c8b2c54c7/img_1.jpg?width=960&height=960"]',NULL,1791595740);
INSERT INTO "story_stories" VALUES(37,'_C.4C9d',4100000012,'NOTE','주말엔 집에서 영화 세 편 몰아보기.','PUBLIC',0,'{}','[]',NULL,1793926260);
INSERT INTO "story_stories" VALUES(38,'_C.4C9e',4100000012,'NOTE','오늘 한강에서 자전거 탔어요. 바람이 정말 좋았어요!','ONLY_ME',0,'{}','[]',NULL,1794505260);
CREATE TABLE story_uploads (path TEXT PRIMARY KEY, user_id INTEGER NOT NULL, created_at INTEGER NOT NULL);
CREATE TABLE talk_friends (
    user_id INTEGER NOT NULL, friend_id INTEGER NOT NULL, favorite INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, friend_id)
);
INSERT INTO "talk_friends" VALUES(4100000001,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4100000001,1);
INSERT INTO "talk_friends" VALUES(4100000001,4100000003,1);
INSERT INTO "talk_friends" VALUES(4100000003,4100000001,1);
INSERT INTO "talk_friends" VALUES(4100000001,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4100000005,1);
INSERT INTO "talk_friends" VALUES(4100000005,4100000001,1);
INSERT INTO "talk_friends" VALUES(4100000001,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4100000001,1);
INSERT INTO "talk_friends" VALUES(4100000001,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4100000008,1);
INSERT INTO "talk_friends" VALUES(4100000008,4100000001,1);
INSERT INTO "talk_friends" VALUES(4100000001,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4100000012,1);
INSERT INTO "talk_friends" VALUES(4100000012,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000001,0);
INSERT INTO "talk_friends" VALUES(4200000001,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000002,1);
INSERT INTO "talk_friends" VALUES(4200000002,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000003,0);
INSERT INTO "talk_friends" VALUES(4200000003,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000004,0);
INSERT INTO "talk_friends" VALUES(4200000004,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000005,0);
INSERT INTO "talk_friends" VALUES(4200000005,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000006,1);
INSERT INTO "talk_friends" VALUES(4200000006,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000007,0);
INSERT INTO "talk_friends" VALUES(4200000007,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000008,0);
INSERT INTO "talk_friends" VALUES(4200000008,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000009,0);
INSERT INTO "talk_friends" VALUES(4200000009,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000010,0);
INSERT INTO "talk_friends" VALUES(4200000010,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000011,0);
INSERT INTO "talk_friends" VALUES(4200000011,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000012,0);
INSERT INTO "talk_friends" VALUES(4200000012,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000013,0);
INSERT INTO "talk_friends" VALUES(4200000013,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000014,1);
INSERT INTO "talk_friends" VALUES(4200000014,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000015,0);
INSERT INTO "talk_friends" VALUES(4200000015,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000016,0);
INSERT INTO "talk_friends" VALUES(4200000016,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000017,1);
INSERT INTO "talk_friends" VALUES(4200000017,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000018,0);
INSERT INTO "talk_friends" VALUES(4200000018,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000019,0);
INSERT INTO "talk_friends" VALUES(4200000019,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000020,0);
INSERT INTO "talk_friends" VALUES(4200000020,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000021,0);
INSERT INTO "talk_friends" VALUES(4200000021,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000022,1);
INSERT INTO "talk_friends" VALUES(4200000022,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000023,0);
INSERT INTO "talk_friends" VALUES(4200000023,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000024,1);
INSERT INTO "talk_friends" VALUES(4200000024,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000025,0);
INSERT INTO "talk_friends" VALUES(4200000025,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000026,0);
INSERT INTO "talk_friends" VALUES(4200000026,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000027,0);
INSERT INTO "talk_friends" VALUES(4200000027,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000028,0);
INSERT INTO "talk_friends" VALUES(4200000028,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000029,0);
INSERT INTO "talk_friends" VALUES(4200000029,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000030,0);
INSERT INTO "talk_friends" VALUES(4200000030,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000031,0);
INSERT INTO "talk_friends" VALUES(4200000031,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000032,1);
INSERT INTO "talk_friends" VALUES(4200000032,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000033,0);
INSERT INTO "talk_friends" VALUES(4200000033,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000034,0);
INSERT INTO "talk_friends" VALUES(4200000034,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000035,1);
INSERT INTO "talk_friends" VALUES(4200000035,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000036,0);
INSERT INTO "talk_friends" VALUES(4200000036,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000037,0);
INSERT INTO "talk_friends" VALUES(4200000037,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000038,0);
INSERT INTO "talk_friends" VALUES(4200000038,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000039,1);
INSERT INTO "talk_friends" VALUES(4200000039,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000001,4200000040,0);
INSERT INTO "talk_friends" VALUES(4200000040,4100000001,0);
INSERT INTO "talk_friends" VALUES(4100000002,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4100000002,1);
INSERT INTO "talk_friends" VALUES(4100000002,4100000005,1);
INSERT INTO "talk_friends" VALUES(4100000005,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4100000002,1);
INSERT INTO "talk_friends" VALUES(4100000002,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000001,0);
INSERT INTO "talk_friends" VALUES(4200000001,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000003,0);
INSERT INTO "talk_friends" VALUES(4200000003,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000012,1);
INSERT INTO "talk_friends" VALUES(4200000012,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000014,0);
INSERT INTO "talk_friends" VALUES(4200000014,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000016,0);
INSERT INTO "talk_friends" VALUES(4200000016,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000019,0);
INSERT INTO "talk_friends" VALUES(4200000019,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000022,0);
INSERT INTO "talk_friends" VALUES(4200000022,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000025,0);
INSERT INTO "talk_friends" VALUES(4200000025,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000026,0);
INSERT INTO "talk_friends" VALUES(4200000026,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000002,4200000038,0);
INSERT INTO "talk_friends" VALUES(4200000038,4100000002,0);
INSERT INTO "talk_friends" VALUES(4100000003,4100000004,1);
INSERT INTO "talk_friends" VALUES(4100000004,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4100000003,1);
INSERT INTO "talk_friends" VALUES(4100000003,4100000006,1);
INSERT INTO "talk_friends" VALUES(4100000006,4100000003,1);
INSERT INTO "talk_friends" VALUES(4100000003,4100000008,1);
INSERT INTO "talk_friends" VALUES(4100000008,4100000003,1);
INSERT INTO "talk_friends" VALUES(4100000003,4100000012,1);
INSERT INTO "talk_friends" VALUES(4100000012,4100000003,1);
INSERT INTO "talk_friends" VALUES(4100000003,4200000002,0);
INSERT INTO "talk_friends" VALUES(4200000002,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000003,0);
INSERT INTO "talk_friends" VALUES(4200000003,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000005,0);
INSERT INTO "talk_friends" VALUES(4200000005,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000014,1);
INSERT INTO "talk_friends" VALUES(4200000014,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000019,1);
INSERT INTO "talk_friends" VALUES(4200000019,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000023,0);
INSERT INTO "talk_friends" VALUES(4200000023,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000024,1);
INSERT INTO "talk_friends" VALUES(4200000024,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000027,0);
INSERT INTO "talk_friends" VALUES(4200000027,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000030,0);
INSERT INTO "talk_friends" VALUES(4200000030,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000031,0);
INSERT INTO "talk_friends" VALUES(4200000031,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000035,0);
INSERT INTO "talk_friends" VALUES(4200000035,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000003,4200000036,0);
INSERT INTO "talk_friends" VALUES(4200000036,4100000003,0);
INSERT INTO "talk_friends" VALUES(4100000004,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4100000004,1);
INSERT INTO "talk_friends" VALUES(4100000004,4100000008,1);
INSERT INTO "talk_friends" VALUES(4100000008,4100000004,1);
INSERT INTO "talk_friends" VALUES(4100000004,4100000009,1);
INSERT INTO "talk_friends" VALUES(4100000009,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000011,0);
INSERT INTO "talk_friends" VALUES(4200000011,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000020,0);
INSERT INTO "talk_friends" VALUES(4200000020,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000021,0);
INSERT INTO "talk_friends" VALUES(4200000021,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000024,0);
INSERT INTO "talk_friends" VALUES(4200000024,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000026,0);
INSERT INTO "talk_friends" VALUES(4200000026,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000031,0);
INSERT INTO "talk_friends" VALUES(4200000031,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000032,1);
INSERT INTO "talk_friends" VALUES(4200000032,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000004,4200000037,0);
INSERT INTO "talk_friends" VALUES(4200000037,4100000004,0);
INSERT INTO "talk_friends" VALUES(4100000005,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4100000005,1);
INSERT INTO "talk_friends" VALUES(4100000005,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4100000012,1);
INSERT INTO "talk_friends" VALUES(4100000012,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000003,0);
INSERT INTO "talk_friends" VALUES(4200000003,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000004,0);
INSERT INTO "talk_friends" VALUES(4200000004,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000011,1);
INSERT INTO "talk_friends" VALUES(4200000011,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000015,0);
INSERT INTO "talk_friends" VALUES(4200000015,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000016,1);
INSERT INTO "talk_friends" VALUES(4200000016,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000018,0);
INSERT INTO "talk_friends" VALUES(4200000018,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000028,0);
INSERT INTO "talk_friends" VALUES(4200000028,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000038,0);
INSERT INTO "talk_friends" VALUES(4200000038,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000005,4200000040,0);
INSERT INTO "talk_friends" VALUES(4200000040,4100000005,0);
INSERT INTO "talk_friends" VALUES(4100000006,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4200000011,0);
INSERT INTO "talk_friends" VALUES(4200000011,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4200000012,1);
INSERT INTO "talk_friends" VALUES(4200000012,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4200000014,0);
INSERT INTO "talk_friends" VALUES(4200000014,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4200000031,0);
INSERT INTO "talk_friends" VALUES(4200000031,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4200000038,0);
INSERT INTO "talk_friends" VALUES(4200000038,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000006,4200000040,1);
INSERT INTO "talk_friends" VALUES(4200000040,4100000006,0);
INSERT INTO "talk_friends" VALUES(4100000007,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4100000012,1);
INSERT INTO "talk_friends" VALUES(4100000012,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4200000014,0);
INSERT INTO "talk_friends" VALUES(4200000014,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4200000015,0);
INSERT INTO "talk_friends" VALUES(4200000015,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4200000016,0);
INSERT INTO "talk_friends" VALUES(4200000016,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4200000036,0);
INSERT INTO "talk_friends" VALUES(4200000036,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000007,4200000037,0);
INSERT INTO "talk_friends" VALUES(4200000037,4100000007,0);
INSERT INTO "talk_friends" VALUES(4100000008,4100000012,1);
INSERT INTO "talk_friends" VALUES(4100000012,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000006,0);
INSERT INTO "talk_friends" VALUES(4200000006,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000010,0);
INSERT INTO "talk_friends" VALUES(4200000010,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000011,0);
INSERT INTO "talk_friends" VALUES(4200000011,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000014,0);
INSERT INTO "talk_friends" VALUES(4200000014,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000019,0);
INSERT INTO "talk_friends" VALUES(4200000019,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000025,0);
INSERT INTO "talk_friends" VALUES(4200000025,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000027,0);
INSERT INTO "talk_friends" VALUES(4200000027,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000028,0);
INSERT INTO "talk_friends" VALUES(4200000028,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000030,0);
INSERT INTO "talk_friends" VALUES(4200000030,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000035,1);
INSERT INTO "talk_friends" VALUES(4200000035,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000039,0);
INSERT INTO "talk_friends" VALUES(4200000039,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000008,4200000040,0);
INSERT INTO "talk_friends" VALUES(4200000040,4100000008,0);
INSERT INTO "talk_friends" VALUES(4100000009,4100000012,1);
INSERT INTO "talk_friends" VALUES(4100000012,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000004,0);
INSERT INTO "talk_friends" VALUES(4200000004,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000014,0);
INSERT INTO "talk_friends" VALUES(4200000014,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000016,0);
INSERT INTO "talk_friends" VALUES(4200000016,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000018,0);
INSERT INTO "talk_friends" VALUES(4200000018,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000020,0);
INSERT INTO "talk_friends" VALUES(4200000020,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000023,0);
INSERT INTO "talk_friends" VALUES(4200000023,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000025,0);
INSERT INTO "talk_friends" VALUES(4200000025,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000026,0);
INSERT INTO "talk_friends" VALUES(4200000026,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000037,0);
INSERT INTO "talk_friends" VALUES(4200000037,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000009,4200000039,1);
INSERT INTO "talk_friends" VALUES(4200000039,4100000009,0);
INSERT INTO "talk_friends" VALUES(4100000010,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4100000010,1);
INSERT INTO "talk_friends" VALUES(4100000010,4200000008,1);
INSERT INTO "talk_friends" VALUES(4200000008,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4200000019,1);
INSERT INTO "talk_friends" VALUES(4200000019,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4200000022,1);
INSERT INTO "talk_friends" VALUES(4200000022,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4200000024,0);
INSERT INTO "talk_friends" VALUES(4200000024,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4200000037,1);
INSERT INTO "talk_friends" VALUES(4200000037,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000010,4200000039,0);
INSERT INTO "talk_friends" VALUES(4200000039,4100000010,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000011,0);
INSERT INTO "talk_friends" VALUES(4200000011,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000012,1);
INSERT INTO "talk_friends" VALUES(4200000012,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000031,0);
INSERT INTO "talk_friends" VALUES(4200000031,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000032,0);
INSERT INTO "talk_friends" VALUES(4200000032,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000033,0);
INSERT INTO "talk_friends" VALUES(4200000033,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000034,0);
INSERT INTO "talk_friends" VALUES(4200000034,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000036,0);
INSERT INTO "talk_friends" VALUES(4200000036,4100000012,0);
INSERT INTO "talk_friends" VALUES(4100000012,4200000038,0);
INSERT INTO "talk_friends" VALUES(4200000038,4100000012,0);
CREATE TABLE talk_messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, sender_id INTEGER NOT NULL,
    receiver_id INTEGER NOT NULL, chat TEXT NOT NULL, kind TEXT NOT NULL, template_id TEXT,
    message TEXT NOT NULL, created_at INTEGER NOT NULL
);
INSERT INTO "talk_messages" VALUES(1,'100001',4100000001,4100000001,'MemoChat','default',NULL,'{"object_type": "text", "text": "v1 memo", "link": {"web_url": "https://example.test", "mobile_web_url": "https://example.test"}}',1795165200);
CREATE TABLE term_consents (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL, tag TEXT NOT NULL, agreed INTEGER NOT NULL,
    agreed_at INTEGER, agreed_by TEXT, PRIMARY KEY (app_id, user_id, tag)
);
CREATE TABLE token_issues (app_id TEXT NOT NULL, user_id INTEGER NOT NULL, at INTEGER NOT NULL);
CREATE TABLE tokens (
    access_token TEXT PRIMARY KEY, refresh_token TEXT NOT NULL, app_id TEXT NOT NULL, user_id INTEGER NOT NULL,
    scopes TEXT NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
    refresh_expires_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT 0,
    auth_time INTEGER, client_id TEXT
);
INSERT INTO "tokens" VALUES('VgKAJKi5ZT4uK_ghbcA-znZCscgY_89d02V0uDCWO4U','FeGL2q3EjYgTHdPvY4Eo4ms6l9q4mK7JjUVoknmXjLQ','100001',4100000001,'["profile", "talk_message"]',1795165200,1795186800,1800349200,0,1795165200,'c0a3bfa4b61e18ffdb7a0e2c604ba443');
CREATE TABLE user_properties (
    app_id TEXT NOT NULL, user_id INTEGER NOT NULL, properties TEXT NOT NULL, PRIMARY KEY (app_id, user_id)
);
CREATE TABLE users (
    id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL, password TEXT NOT NULL, nickname TEXT NOT NULL,
    name TEXT, gender TEXT, birthyear TEXT, birthday TEXT, birthday_type TEXT, phone_number TEXT,
    profile_image_url TEXT, thumbnail_image_url TEXT, is_talk_user INTEGER NOT NULL DEFAULT 1,
    is_story_user INTEGER NOT NULL DEFAULT 1, disabled INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL,
    attrs TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO "users" VALUES(4100000001,'minji@sandbox.test','sandbox','민지','김민지','FEMALE','1994','0312','SOLAR','+82 10-1200-0001','https://img.sandbox.test/profile/1_640x640.jpg','https://img.sandbox.test/profile/1_110x110.jpg',1,1,0,1760605200,'{"shipping_addresses": [{"id": 9000001, "name": "집", "is_default": false, "updated_at": 1795000000, "type": "NEW", "base_address": "서울 강남구 테헤란로 152", "detail_address": "101동 1001호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "06236"}, {"id": 9000002, "name": "회사", "is_default": false, "updated_at": 1794737200, "type": "NEW", "base_address": "서울 마포구 월드컵북로 396", "detail_address": "102동 1002호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "03925"}, {"id": 9000003, "name": "부모님 댁", "is_default": false, "updated_at": 1794474400, "type": "NEW", "base_address": "부산 해운대구 센텀중앙로 79", "detail_address": "103동 1003호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "48058"}, {"id": 9000004, "name": "친구", "is_default": true, "updated_at": 1794211600, "type": "NEW", "base_address": "서울 종로구 세종대로 175", "detail_address": "104동 1004호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "03154"}, {"id": 9000005, "name": "별장", "is_default": false, "updated_at": 1793948800, "type": "NEW", "base_address": "대전 유성구 대학로 99", "detail_address": "105동 1005호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "34134"}, {"id": 9000006, "name": "집 5", "is_default": false, "updated_at": 1793686000, "type": "NEW", "base_address": "경기 성남시 분당구 판교역로 166", "detail_address": "106동 1006호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "13529"}, {"id": 9000007, "name": "회사 6", "is_default": false, "updated_at": 1793423200, "type": "OLD", "base_address": "서울 중구 명동2가 1-1", "detail_address": "107동 1007호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zip_code": "100-809"}, {"id": 9000008, "name": "부모님 댁 7", "is_default": false, "updated_at": 1793160400, "type": "OLD", "base_address": "인천 연수구 송도동 24-4", "detail_address": "108동 1008호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zip_code": "406-840"}, {"id": 9000009, "name": "친구 8", "is_default": false, "updated_at": 1792897600, "type": "OLD", "base_address": "광주 북구 용봉동 300", "detail_address": "109동 1009호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zip_code": "500-757"}, {"id": 9000010, "name": "별장 9", "is_default": false, "updated_at": 1792634800, "type": "NEW", "base_address": "제주 제주시 첨단로 242", "detail_address": "110동 1010호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "63309"}, {"id": 9000011, "name": "집 10", "is_default": false, "updated_at": 1792372000, "type": "NEW", "base_address": "대구 중구 동성로 30", "detail_address": "111동 1011호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "41911"}, {"id": 9000012, "name": "회사 11", "is_default": false, "updated_at": 1792109200, "type": "NEW", "base_address": "울산 남구 삼산로 261", "detail_address": "112동 1012호", "receiver_name": "김민지", "receiver_phone_number1": "010-1200-0001", "receiver_phone_number2": null, "zone_number": "44719"}]}');
INSERT INTO "users" VALUES(4100000002,'jun@sandbox.test','sandbox','준호','이준호','MALE','1990','0721','SOLAR','+82 10-1200-0002','https://img.sandbox.test/profile/2_640x640.jpg','https://img.sandbox.test/profile/2_110x110.jpg',1,1,0,1760605200,'{"shipping_addresses": [{"id": 9000013, "name": "집", "is_default": false, "updated_at": 1795000000, "type": "NEW", "base_address": "서울 강남구 테헤란로 152", "detail_address": "101동 1001호", "receiver_name": "이준호", "receiver_phone_number1": "010-1200-0002", "receiver_phone_number2": null, "zone_number": "06236"}, {"id": 9000014, "name": "회사", "is_default": false, "updated_at": 1794737200, "type": "NEW", "base_address": "서울 마포구 월드컵북로 396", "detail_address": "102동 1002호", "receiver_name": "이준호", "receiver_phone_number1": "010-1200-0002", "receiver_phone_number2": null, "zone_number": "03925"}, {"id": 9000015, "name": "부모님 댁", "is_default": false, "updated_at": 1794474400, "type": "NEW", "base_address": "부산 해운대구 센텀중앙로 79", "detail_address": "103동 1003호", "receiver_name": "이준호", "receiver_phone_number1": "010-1200-0002", "receiver_phone_number2": null, "zone_number": "48058"}]}');
INSERT INTO "users" VALUES(4100000003,'seoyeon@sandbox.test','sandbox','서연','박서연','FEMALE','1998','1105','SOLAR','+82 10-1200-0003','https://img.sandbox.test/profile/3_640x640.jpg','https://img.sandbox.test/profile/3_110x110.jpg',1,1,0,1760605200,'{"shipping_addresses": [{"id": 9000016, "name": "집", "is_default": true, "updated_at": 1795000000, "type": "NEW", "base_address": "서울 강남구 테헤란로 152", "detail_address": "101동 1001호", "receiver_name": "박서연", "receiver_phone_number1": "010-1200-0003", "receiver_phone_number2": null, "zone_number": "06236"}]}');
INSERT INTO "users" VALUES(4100000004,'dohyun@sandbox.test','sandbox','도현','최도현','MALE','1987','0228','SOLAR','+82 10-1200-0004','https://img.sandbox.test/profile/4_640x640.jpg','https://img.sandbox.test/profile/4_110x110.jpg',1,0,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000005,'alex@sandbox.test','sandbox','Alex','Alex Kim','MALE','1992','0909','SOLAR','+82 10-1200-0005','https://img.sandbox.test/profile/5_640x640.jpg','https://img.sandbox.test/profile/5_110x110.jpg',1,1,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000006,'haeun@sandbox.test','sandbox','하은','정하은','FEMALE','2001','0417','SOLAR','+82 10-1200-0006','https://img.sandbox.test/profile/6_640x640.jpg','https://img.sandbox.test/profile/6_110x110.jpg',1,1,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000007,'yuna@sandbox.test','sandbox','유나','강유나','FEMALE','1996','1230','SOLAR','+82 10-1200-0007','https://img.sandbox.test/profile/7_640x640.jpg','https://img.sandbox.test/profile/7_110x110.jpg',1,1,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000008,'sungmin@sandbox.test','sandbox','성민','윤성민','MALE','1985','0601','SOLAR','+82 10-1200-0008','https://img.sandbox.test/profile/8_640x640.jpg','https://img.sandbox.test/profile/8_110x110.jpg',1,0,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000009,'bora@sandbox.test','sandbox','보라','임보라','FEMALE','1999','0815','SOLAR','+82 10-1200-0009','https://img.sandbox.test/profile/9_640x640.jpg','https://img.sandbox.test/profile/9_110x110.jpg',1,1,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000010,'sam@sandbox.test','sandbox','Sam','Sam Lee','MALE','1993','0103','SOLAR','+82 10-1200-0010','https://img.sandbox.test/profile/10_640x640.jpg','https://img.sandbox.test/profile/10_110x110.jpg',1,1,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000011,'jiwoo@sandbox.test','sandbox','지우','한지우','FEMALE','2000','1022','SOLAR','+82 10-1200-0011','https://img.sandbox.test/profile/11_640x640.jpg','https://img.sandbox.test/profile/11_110x110.jpg',0,1,0,1760605200,'{}');
INSERT INTO "users" VALUES(4100000012,'taeyang@sandbox.test','sandbox','태양','오태양','MALE','1989','0505','SOLAR','+82 10-1200-0012','https://img.sandbox.test/profile/12_640x640.jpg','https://img.sandbox.test/profile/12_110x110.jpg',1,1,0,1760605200,'{}');
CREATE TABLE webhook_attempts (
    delivery_id INTEGER NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL, status INTEGER, outcome TEXT NOT NULL,
    detail TEXT, elapsed_ms REAL NOT NULL, PRIMARY KEY (delivery_id, n)
);
CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, app_id TEXT NOT NULL, kind TEXT NOT NULL, event_type TEXT,
    user_id INTEGER, url TEXT, method TEXT, request TEXT NOT NULL DEFAULT '{}', resource_id TEXT NOT NULL,
    state TEXT NOT NULL, note TEXT, attempts INTEGER NOT NULL DEFAULT 0, next_at REAL,
    last_status INTEGER, created_at INTEGER NOT NULL, finished_at INTEGER
);
CREATE TABLE webhook_health (
    app_id TEXT NOT NULL, kind TEXT NOT NULL, url TEXT NOT NULL, failures INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1, deactivated_at INTEGER, PRIMARY KEY (app_id, kind)
);
CREATE INDEX tokens_refresh ON tokens(refresh_token);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_at);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('status_incidents',20);
INSERT INTO "sqlite_sequence" VALUES('story_stories',38);
INSERT INTO "sqlite_sequence" VALUES('story_comments',61);
INSERT INTO "sqlite_sequence" VALUES('consent_events',2);
INSERT INTO "sqlite_sequence" VALUES('talk_messages',1);
COMMIT;
